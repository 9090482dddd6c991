"""The `gamecert` command.

Exit codes: 0 certified (or clean), 1 rule violations found, 2 bad usage or bad input,
3 engine unusable, 4 incomplete (an applicable rule was never exercised), 5 an internal
error of gamecert's own.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from gamecert.fuzz.botcheck import cli as botcheck
from gamecert.fuzz.engines import Engine, EngineSpecError, open_engine
from gamecert.spec import Catalogue, CatalogueError, games, load_catalogue, load_catalogue_file

if TYPE_CHECKING:
    from gamecert.fuzz.campaign import CampaignResult

EXIT_OK, EXIT_VIOLATIONS, EXIT_BAD_INPUT, EXIT_UNUSABLE = 0, 1, 2, 3
EXIT_INCOMPLETE, EXIT_INTERNAL, EXIT_INTERRUPTED = 4, 5, 130
EXIT_CODES = ("exit codes: 0 certified (or a clean replay), 1 rule violations found, "
              "2 bad usage or bad input, 3 engine unusable, 4 incomplete (an applicable rule "
              "was exercised fewer than --min-exercised times, or no step ran), 5 internal "
              "error of gamecert")


class UsageError(Exception):
    pass


def _engine_args(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--engine", metavar="ENGINE",
                       help="'reference' (in-process) or a Python object 'package.module:attr' "
                            "(a Game class or instance, or a Session)")
    group.add_argument("--engine-cmd", metavar="COMMAND",
                       help="a command that runs an engine speaking the wire protocol on "
                            "stdin/stdout (default: the bundled reference, as a subprocess)")
    p.add_argument("--timeout", type=float, default=5.0, metavar="SECONDS",
                   help="time limit for each reply of a subprocess engine (default 5)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamecert",
        description="Specification-driven rules verifier and fuzzer for bot-competition games.",
        epilog=EXIT_CODES[0].upper() + EXIT_CODES[1:] + ".")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("rules", help="list a game's rules")
    p.add_argument("game")
    p.add_argument("--profile", help="show the variants this profile selects")
    p.add_argument("--catalogue", metavar="FILE", help="read this catalogue file instead")
    p.add_argument("--verbose", "-v", action="store_true", help="print each rule's text")

    for name, text in (("certify", "certify an engine: fuzz it against the reference and "
                                    "every rule oracle, then print its certificate"),
                       ("fuzz", "the same as certify")):
        p = sub.add_parser(name, help=text)
        p.add_argument("game")
        _engine_args(p)
        p.add_argument("--budget", type=float, default=20.0, metavar="SECONDS",
                       help="stop starting new rounds after this long (default 20)")
        p.add_argument("--rounds", type=int, metavar="N",
                       help="run exactly N rounds (replays a run exactly with --seed)")
        p.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
        p.add_argument("--profile", help="rule profile (default: the catalogue's)")
        p.add_argument("--report", metavar="DIR", help="write report.json, report.xml, "
                                                       "report.html and trace files here "
                                                       "(always, whatever the outcome)")
        p.add_argument("--baseline", metavar="FILE",
                       help="accepted departures (a previous report.json, or a JSON/TOML "
                            "list, see `gamecert baseline`): shown, but only new departures "
                            "fail the run")
        p.add_argument("--min-exercised", type=int, default=1, metavar="N",
                       help="CERTIFIED only if every applicable rule was exercised at least "
                            "N times, else INCOMPLETE, exit 4 (default 1)")
        p.add_argument("--quiet", "-q", action="store_true",
                       help="plain progress lines instead of the live display")
        p.add_argument("--resume", metavar="DIR",
                       help="go on with a campaign that was killed: DIR is its --report "
                            "folder (its seed, profile, budget, rounds and findings are "
                            "kept; give the same engine)")

    p = sub.add_parser("baseline", help="write a baseline accepting every departure of a "
                                         "report, to edit and pass to certify --baseline")
    p.add_argument("report", metavar="REPORT_JSON")
    p.add_argument("-o", "--output", metavar="FILE", default="accepted.json",
                   help="where to write it (default accepted.json)")

    p = sub.add_parser("report", help="(re)write report.html from a report folder's "
                                      "report.json and trace files")
    p.add_argument("folder", metavar="DIR", help="a folder written by certify --report")

    p = sub.add_parser("replay", help="re-run trace files on an engine")
    p.add_argument("traces", nargs="+", metavar="TRACE")
    _engine_args(p)
    p.add_argument("--bot-cmd", metavar="COMMAND", help="replay bot-check traces on this bot")

    p = sub.add_parser("prove", help="z3 proofs about an engine's rule code and boundary cases")
    p.add_argument("game")
    _engine_args(p)
    p.add_argument("--profile")

    p = sub.add_parser("serve", help="run an in-process engine as a wire-protocol subprocess")
    p.add_argument("game")
    p.add_argument("--engine", default="reference",
                   help="'reference' or 'package.module:attr' (default reference)")
    botcheck.add_parser(sub)
    return parser


def _catalogue(game: str) -> Catalogue:
    if game not in games():
        raise UsageError(f"unknown game {game!r} (known: {', '.join(games())})")
    return load_catalogue(game)


def _open(args: argparse.Namespace) -> Engine:
    game = getattr(args, "game", None) or "flit"
    if args.engine_cmd:
        return open_engine(game, command=args.engine_cmd, timeout=args.timeout)
    if args.engine:
        return open_engine(game, engine=args.engine)
    return open_engine(game, command=[sys.executable, "-m", "gamecert", "serve", game],
                       timeout=args.timeout)


def cmd_rules(args: argparse.Namespace) -> int:
    cat = load_catalogue_file(args.catalogue) if args.catalogue else _catalogue(args.game)
    profile = cat.profile(args.profile)
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


def cmd_certify(args: argparse.Namespace) -> int:
    from gamecert.fuzz.baseline import load_baseline
    from gamecert.fuzz.campaign import CampaignResult, run_campaign
    from gamecert.fuzz.lockstep import Coverage
    from gamecert.fuzz.progress import progress_display
    from gamecert.fuzz.report import (
        render_findings,
        render_fingerprint,
        render_table,
        rule_rows,
        summary,
        write_report,
    )

    cat = _catalogue(args.game)
    resume = None
    if args.resume:
        from gamecert.fuzz.checkpoint import load_checkpoint

        resume = load_checkpoint(Path(args.resume))
        if resume.game != args.game:
            raise UsageError(f"{args.resume} holds a {resume.game} campaign, not {args.game}")
        args.report, args.seed, args.profile = args.resume, resume.seed, resume.profile
        if args.rounds is None and resume.budget is not None:
            args.budget = resume.budget
    profile = cat.profile(args.profile)
    if args.rounds is not None and args.rounds < 1:
        raise UsageError("--rounds must be at least 1")
    if args.min_exercised < 1:
        raise UsageError("--min-exercised must be at least 1")
    baseline = load_baseline(args.baseline) if args.baseline else None
    report_dir = Path(args.report) if args.report else None
    try:
        engine = _open(args)
    except EngineSpecError as exc:
        if report_dir is not None:  # a CI job must get its JUnit file even now
            failed = CampaignResult(args.game, profile, _engine_label(args), args.seed,
                                    None if args.rounds else args.budget, 0, 0.0, Coverage(),
                                    unusable=str(exc), min_exercised=args.min_exercised)
            write_report(failed, report_dir)
        raise
    print(f"gamecert certify {args.game}: engine {engine.name}, profile {profile.id}, "
          f"seed {args.seed}, " + (f"{args.rounds} rounds" if args.rounds else
                                   f"budget {args.budget:g} s") +
          (f", baseline {args.baseline}" if baseline else "") +
          (f", resuming after round {resume.rounds} ({resume.elapsed:.1f} s spent, "
           f"{len(resume.departures)} findings)" if resume else ""), flush=True)
    display = progress_display(args.quiet)
    try:
        result = run_campaign(args.game, engine, profile_id=profile.id,
                              budget=None if args.rounds else args.budget, rounds=args.rounds,
                              seed=args.seed, min_exercised=args.min_exercised,
                              baseline=baseline, progress=display, resume=resume,
                              on_round=_checkpointer(report_dir),
                              storage=report_dir / ".hypothesis" if report_dir else None)
    finally:
        display.close()
        engine.close()
    final = _checkpointer(report_dir, finished=not result.interrupted)
    if final is not None and not result.unusable:
        final(result)
    if result.shrink_allowance is not None:
        print(f"budget {args.budget:g} s, plus up to {result.shrink_allowance:g} s to shrink "
              f"and fingerprint what was found, plus one reply time-out")
    if not result.unusable:
        rows = rule_rows(result)
        print(render_table(result, rows))
        if result.departures:
            print("\n" + render_findings(result))
        print("\n" + render_fingerprint(result))
    else:
        rows = []
        print(f"ENGINE UNUSABLE: {result.unusable}")
    if report_dir is not None:
        path = write_report(result, report_dir)
        print(f"\nreport: {path}" + (f" (traces in {path.parent / 'traces'})"
                                      if result.departures else ""))
    if result.unusable:
        return EXIT_UNUSABLE
    print("\n" + summary(result, rows))
    print(f"replay this run: gamecert certify {args.game} --profile {profile.id} "
          f"--seed {args.seed} --rounds {result.rounds}")
    if result.interrupted:
        print("INTERRUPTED: the verdict above covers the rounds that ran"
              + (f"; go on with --resume {report_dir}" if report_dir else ""))
        return EXIT_INTERRUPTED
    return {"violations": EXIT_VIOLATIONS, "incomplete": EXIT_INCOMPLETE}.get(result.status,
                                                                               EXIT_OK)


def _checkpointer(report_dir: Path | None,
                  finished: bool = False) -> Callable[[CampaignResult], None] | None:
    """After each round: the report and a checkpoint, so a killed run loses nothing."""
    if report_dir is None:
        return None
    from gamecert.fuzz.checkpoint import save_checkpoint
    from gamecert.fuzz.report import write_report

    def save(result: CampaignResult) -> None:
        write_report(result, report_dir)
        save_checkpoint(report_dir, game=result.game, profile=result.profile.id,
                        seed=result.seed, budget=result.budget, rounds=result.rounds,
                        elapsed=result.duration, coverage=result.coverage,
                        departures=result.departures, finished=finished)

    return save


def _engine_label(args: argparse.Namespace) -> str:
    return str(args.engine_cmd or args.engine or "reference (subprocess)")


def cmd_baseline(args: argparse.Namespace) -> int:
    from gamecert.fuzz.baseline import write_baseline

    n = write_baseline(args.report, args.output)
    print(f"{args.output}: {n} accepted departures from {args.report}; give each a reason, "
          f"then pass it with certify --baseline {args.output}")
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    from gamecert.fuzz.report_html import write_html
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
    from gamecert.fuzz.trace import load_trace, replay

    if args.bot_cmd:
        return botcheck.cmd_replay_bot(args)
    docs = [(t, load_trace(t)) for t in args.traces]  # all readable before any engine starts
    code = EXIT_OK
    for path, doc in docs:
        args.game = doc["game"]
        engine = _open(args)
        try:
            result = replay(doc, engine, path=path)
        finally:
            engine.close()
        if result.finding is None:
            print(f"{path}: clean: {result.ops_run} operations, no rule broken "
                  f"(recorded: {', '.join(result.expected) or 'nothing'})")
            continue
        code = EXIT_VIOLATIONS
        f = result.finding
        again = "reproduced" if result.reproduced else "a different finding"
        print(f"{path}: {again}: [{', '.join(f.rules)}] {f.kind} at operation "
              f"{f.op_index + 1}: {f.message}")
    return code


def cmd_prove(args: argparse.Namespace) -> int:
    cat = _catalogue(args.game)
    profile = cat.profile(args.profile)
    from gamecert.fuzz.prove import prover_for

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
    from gamecert.fuzz.engines import InProcessEngine, in_process
    from gamecert.fuzz.server import serve
    from gamecert.reference_engine import reference_session

    _catalogue(args.game)
    if args.engine == "reference":
        session = reference_session(args.game)
    else:
        from gamecert.fuzz.engines import _import_object
        wrapped = in_process(_import_object(args.engine), args.engine)
        assert isinstance(wrapped, InProcessEngine)
        session = wrapped.session
    serve(session)
    return EXIT_OK


COMMANDS = {"rules": cmd_rules, "certify": cmd_certify, "fuzz": cmd_certify,
            "baseline": cmd_baseline, "report": cmd_report, "replay": cmd_replay,
            "prove": cmd_prove, "serve": cmd_serve, "bot-check": botcheck.cmd_bot_check}


def main(argv: list[str] | None = None) -> int:
    from gamecert.fuzz.baseline import BaselineError
    from gamecert.fuzz.checkpoint import CheckpointError
    from gamecert.fuzz.trace import TraceError

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return COMMANDS[args.command](args)
    except (UsageError, CatalogueError, TraceError, BaselineError, CheckpointError) as exc:
        print(f"gamecert: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except EngineSpecError as exc:
        print(f"gamecert: engine unusable: {exc}", file=sys.stderr)
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        print("gamecert: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug of ours: say so plainly, details on request
        print(f"gamecert: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        if os.environ.get("GAMECERT_DEBUG"):
            traceback.print_exc()
        else:
            print("(set GAMECERT_DEBUG=1 for the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
