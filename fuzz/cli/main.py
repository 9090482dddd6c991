"""The `gamecert` command.

Exit codes: 0 certified (or clean), 1 rule violations found, 2 bad usage or bad input,
3 engine unusable, 4 incomplete (an applicable rule was never exercised), 5 an internal
error of gamecert's own, 130 interrupted.

Every option is checked before anything starts (finite, in range, a command that parses),
so a mistake of the user's is exit 2 with a message naming the option, never an engine
verdict. This module must not hold campaign or report logic: it parses, checks, and calls.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from gamecert.fuzz.atomic_write import WriteError
from gamecert.fuzz.botcheck import cli as botcheck
from gamecert.fuzz.cli.args import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNUSABLE,
    EXIT_VIOLATIONS,
    UsageError,
    _catalogue,
    _open,
    _profile,
    build_parser,
)
from gamecert.fuzz.cli.certify import cmd_certify
from gamecert.fuzz.engines.engine import EngineSpecError
from gamecert.fuzz.reports.visible_text import visible
from gamecert.spec import Catalogue, CatalogueError, Profile, games, load_catalogue_file
from gamecert.spec.profile_file import diff_profiles, profile_record, read_profile_file

if TYPE_CHECKING:
    from gamecert.fuzz.findings.trace import ReplayResult


def cmd_rules(args: argparse.Namespace) -> int:
    cat = load_catalogue_file(args.catalogue) if args.catalogue else _catalogue(args.game)
    if args.catalogue and args.profile_file:
        raise UsageError("--profile-file reads the shipped catalogue; leave out --catalogue")
    profile = _profile(args, cat)
    if args.diff is not None:
        return _print_diff(args, cat, profile)
    print(f"{cat.title} (catalogue {cat.version}, {len(cat.rules)} rules; profile "
          f"{profile.id}: {profile.title})")
    width = max(len(r.id) for r in cat.rules)
    group = None
    for r in cat.rules:
        if r.group != group:
            group = r.group
            print(f"\n[{group}]")
        params = ", ".join(f"{k}={v}" for k, v in profile.parameters[r.id].items())
        variant = f"  variant: {profile.variants[r.id]}" if r.interpretation else ""
        print(f"  {r.id:<{width}}  {r.title}" + (f"  ({params})" if params else "") + variant)
        if args.verbose:
            print(f"  {'':<{width}}  {r.text}")
            print(f"  {'':<{width}}  source: {cat.citation(r)}")
            if r.interpretation:
                print(f"  {'':<{width}}  open point: {r.interpretation.question}")
                for vid, text in r.interpretation.variants.items():
                    chosen = " (chosen)" if vid == r.interpretation.chosen else ""
                    print(f"  {'':<{width}}    - {vid}{chosen}: {text}")
    return EXIT_OK


def _print_diff(args: argparse.Namespace, cat: Catalogue, new: Profile) -> int:
    """`rules GAME --profile-file NEW --diff [BASE]`: what changes, rule by rule."""
    if args.profile_file is None:
        raise UsageError("--diff needs --profile-file (the profile to compare)")
    if args.diff == "":
        base = cat.profile(new.extends)
    elif args.diff.endswith((".toml", ".json")):
        base = read_profile_file(args.diff, cat.game)
    else:
        base = cat.profile(args.diff)
    changes = diff_profiles(base, new, cat)
    print(f"{cat.title}: {new.id} ({new.title}) against {base.id}: "
          f"{len(changes)} change(s) in {len({c.rule for c in changes})} rule(s)")
    rule = None
    for c in changes:
        if c.rule != rule:
            rule = c.rule
            print(f"\n  {rule}: {cat.rule(rule).title}")
        print(f"    {c.what}: {c.old!r} -> {c.new!r}" + (f"  ({c.reason})" if c.reason else ""))
    return EXIT_OK


def cmd_baseline(args: argparse.Namespace) -> int:
    from gamecert.fuzz.findings.baseline import write_baseline

    n = write_baseline(args.report, args.output)
    print(f"{args.output}: {n} accepted departures from {args.report}; give each a reason, "
          f"then pass it with certify --baseline {args.output}")
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    from gamecert.fuzz.reports.html import write_html
    from gamecert.schemas import first_error, read_json_file

    source = Path(args.folder) / "report.json"
    doc = read_json_file(source, UsageError)
    problem = first_error("report", doc)
    if problem:
        raise UsageError(f"{source}: not a gamecert report: {problem}")
    try:
        path = write_html(doc, Path(args.folder))
    except OSError as exc:
        raise UsageError(f"{Path(args.folder) / 'report.html'}: cannot write: "
                         f"{exc.strerror}") from None
    print(f"report: {path}")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    from gamecert.fuzz.findings.trace import load_trace, replay

    if args.bot_cmd:
        return botcheck.cmd_replay_bot(args)
    docs = [(t, load_trace(t)) for t in args.traces]  # all readable before any engine starts
    for path, doc in docs:
        if doc["game"] not in games():
            raise UsageError(f"{path}: unknown game {doc['game']!r} (known: "
                             f"{', '.join(games())})")
    code = EXIT_OK
    for path, doc in docs:
        args.game = doc["game"]
        if args.profile_file is not None:  # the traces played under a season's rules
            season = read_profile_file(args.profile_file, doc["game"])
            doc = {**doc, "profile": season.id, "profile_doc": profile_record(season)}
        result, second = (_replay_fresh(args, doc, path, replay) for _ in range(2))
        if _outcome(result) != _outcome(second):
            print(f"{path}: NONDETERMINISTIC: two replays on fresh engines ended differently "
                  f"({_outcome(result)} / {_outcome(second)}); the first is reported")
        if result.finding is not None and result.finding.kind == "start-up":
            print(visible(f"{path}: ENGINE UNUSABLE: {result.finding.message}"))
            code = max(code, EXIT_UNUSABLE)
            continue
        if result.finding is None:
            print(f"{path}: clean: {result.ops_run} operations, no rule broken "
                  f"(recorded: {', '.join(result.expected) or 'nothing'})")
            continue
        code = max(code, EXIT_VIOLATIONS)
        f = result.finding
        again = "reproduced" if result.reproduced else "a different finding"
        # the message quotes the engine (its keys, its values): never raw on a terminal
        print(visible(f"{path}: {again}: [{', '.join(f.rules)}] {f.kind} at operation "
                      f"{f.op_index + 1}: {f.message}"))
        if f.adopted:  # met past earlier departures: say so, they are not this finding
            print(f"  reached past {len(f.adopted)} earlier departure(s) passed over (the "
                  f"reference took the engine's state after operation(s) "
                  f"{', '.join(str(i + 1) for i in f.adopted)}); this step is judged on its "
                  "own")
    return code


def _replay_fresh(args: argparse.Namespace, doc: dict[str, object], path: str,
                  replay: Callable[..., ReplayResult]) -> ReplayResult:
    """One replay on a fresh engine, as the campaign confirmed the trace."""
    engine = _open(args)
    try:
        return replay(doc, engine, path=path)
    finally:
        engine.close()


def _outcome(result: ReplayResult) -> str:
    f = result.finding
    return "clean" if f is None else f"[{', '.join(f.rules)}] {f.kind} at operation " \
                                     f"{f.op_index + 1}"


def cmd_prove(args: argparse.Namespace) -> int:
    cat = _catalogue(args.game)
    profile = _profile(args, cat)
    from gamecert.fuzz.cli.prove import prover_for

    prover = prover_for(args.game)
    if prover is None:
        raise UsageError(f"no proofs are written for {args.game!r} yet")
    if not args.engine and not args.engine_cmd:
        args.engine = "reference"  # proofs read the engine's code, so in-process by default
    engine = _open(args)
    try:
        ok, lines = prover(engine, profile)
    finally:
        engine.close()
    for line in lines:
        print(line)
    return EXIT_OK if ok else EXIT_VIOLATIONS


def cmd_serve(args: argparse.Namespace) -> int:
    from gamecert.fuzz.engines.engine import InProcessEngine
    from gamecert.fuzz.engines.recipes import in_process
    from gamecert.fuzz.engines.server import serve
    from gamecert.reference_engine import reference_session

    _catalogue(args.game)
    if args.engine.startswith(("minimal:", "bare:")):  # behind the minimum (fuzz.engines.minimal)
        from gamecert.fuzz.engines.recipes import object_recipe
        opened = object_recipe(args.game, args.engine).open()
        assert isinstance(opened, InProcessEngine)
        session = opened.session
    elif args.engine == "reference":
        session = reference_session(args.game)
    else:
        from gamecert.fuzz.engines.recipes import _import_object
        wrapped = in_process(_import_object(args.engine), args.engine)
        assert isinstance(wrapped, InProcessEngine)
        session = wrapped.session
    serve(session)
    return EXIT_OK


COMMANDS = {"rules": cmd_rules, "certify": cmd_certify, "baseline": cmd_baseline,
            "report": cmd_report, "replay": cmd_replay, "prove": cmd_prove,
            "serve": cmd_serve, "bot-check": botcheck.cmd_bot_check}


def main(argv: list[str] | None = None) -> int:
    from gamecert.fuzz.findings.baseline import BaselineError
    from gamecert.fuzz.findings.trace import TraceError
    from gamecert.fuzz.search.checkpoint import CheckpointError
    from gamecert.fuzz.search.database import DatabaseError
    from gamecert.fuzz.search.rounds import RoundError

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return COMMANDS[args.command](args)
    except (UsageError, CatalogueError, TraceError, BaselineError, CheckpointError,
            DatabaseError, RoundError, WriteError) as exc:  # WriteError: a full disk, say
        print(visible(f"gamecert: error: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except EngineSpecError as exc:
        print(visible(f"gamecert: engine unusable: {exc}"), file=sys.stderr)
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        print("gamecert: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug of ours: say so plainly, details on request
        print(visible(f"gamecert: internal error: {type(exc).__name__}: {exc}"),
              file=sys.stderr)
        if os.environ.get("GAMECERT_DEBUG"):
            traceback.print_exc()
        else:
            print("(set GAMECERT_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


def _terminate(signum: int, frame: object) -> None:
    """Stopped from outside (a cancelled CI job): stop every engine we started, then exit
    at once. Not by raising: Hypothesis, running the engine, may catch that and go on."""
    from gamecert.fuzz.engines.subprocess_engine import close_all
    from gamecert.fuzz.search.parallel import stop_all_workers

    stop_all_workers()  # worker processes, and the engines they started
    close_all()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(128 + signum)


def run() -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminate)
    for stream in (sys.stdout, sys.stderr):  # a character the terminal cannot take is
        with contextlib.suppress(AttributeError, ValueError):  # shown as its escape
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    sys.exit(main())


if __name__ == "__main__":
    run()
