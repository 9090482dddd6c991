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
import math
import os
import signal
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from gamecert.fuzz.atomic_write import WriteError
from gamecert.fuzz.botcheck import cli as botcheck
from gamecert.fuzz.engines import (
    Engine,
    EngineRecipe,
    EngineSpecError,
    engine_recipe,
    split_command,
)
from gamecert.fuzz.visible_text import visible
from gamecert.spec import (
    Catalogue,
    CatalogueError,
    Profile,
    games,
    load_catalogue,
    load_catalogue_file,
)
from gamecert.spec.profile_file import (
    diff_profiles,
    profile_from_record,
    profile_option,
    profile_record,
    read_profile_file,
    record_key,
    record_of,
)

if TYPE_CHECKING:
    from gamecert.fuzz.baseline import Baseline
    from gamecert.fuzz.campaign import CampaignResult
    from gamecert.fuzz.checkpoint import Checkpoint
    from gamecert.fuzz.database import RoundDatabase
    from gamecert.fuzz.report_folder import Claim
    from gamecert.fuzz.trace import ReplayResult

EXIT_OK, EXIT_VIOLATIONS, EXIT_BAD_INPUT, EXIT_UNUSABLE = 0, 1, 2, 3
EXIT_INCOMPLETE, EXIT_INTERNAL, EXIT_INTERRUPTED = 4, 5, 130

EXIT_CODES = """exit codes:
  0    certified (certify; also with documented departures under --baseline), clean
       (replay), proved (prove)
  1    rule violations found (a finding no baseline accepts, a replay that reproduced, a
       failed proof)
  2    bad usage or bad input: an option, a trace, a catalogue, a baseline, a --report
       folder that cannot be written or is in use (the message says where)
  3    engine unusable: it cannot be started or fails its first requests
  4    incomplete: an applicable rule was exercised fewer than --min-exercised times, or
       no step ran (no evidence, no certificate)
  5    an internal error of gamecert's own (GAMECERT_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C): the report covers the rounds that ran (--resume goes on)"""

MAX_SECONDS = 7 * 24 * 3600.0  # a week: anything longer is a typo
MAX_ROUNDS = 1_000_000
MAX_STEPS = 10_000
MAX_SEED = 2**63 - 1


class UsageError(Exception):
    pass


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gamecert")
    except PackageNotFoundError:
        return "0+unknown"


def _seconds(name: str, low: float) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds above `low`, at most a week."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be a number of seconds, not {text!r}") from None
        if not math.isfinite(value) or value <= low or value > MAX_SECONDS:
            raise argparse.ArgumentTypeError(
                f"must be a finite number of seconds above {low:g} and at most "
                f"{MAX_SECONDS:g}, not {text!r}")
        return value

    return parse


def _whole(name: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high]."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be between {low} and {high}, "
                                             f"not {text}")
        return value

    return parse


def _games_and_profiles() -> str:
    """Each game with its profiles (the default first), for --help."""
    lines = []
    for game in games():
        try:
            cat = load_catalogue(game)
        except CatalogueError:
            lines.append(f"  {game}: (its catalogue does not load)")
            continue
        others = sorted(p for p in cat.profiles if p != cat.default_profile)
        lines.append(f"  {game}: {cat.default_profile} (default)"
                     + "".join(f", {p}" for p in others))
    return "\n".join(lines)


def _engine_args(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--engine", metavar="ENGINE",
                       help="'reference' (in-process), a Python object 'package.module:attr' "
                            "or 'path/to/file.py:attr' (a Game class or instance, or a "
                            "Session); 'minimal:<engine>' puts it behind the minimum "
                            "capabilities (no load_state, legal, bot_output or chance)")
    group.add_argument("--engine-cmd", metavar="COMMAND",
                       help="a command that runs an engine speaking the wire protocol on "
                            "stdin/stdout (default: the bundled reference, as a subprocess)")
    p.add_argument("--timeout", type=_seconds("--timeout", 0), default=5.0, metavar="SECONDS",
                   help="time limit for each reply of a subprocess engine (default 5)")


PROFILE_FILE_HELP = ("a season's rules: a TOML or JSON profile file that extends a shipped "
                     "profile (schemas/profile.schema.json; examples/seasons/)")


def build_parser() -> argparse.ArgumentParser:
    known = _games_and_profiles()
    profile_help = "rule profile (default: the catalogue's); each game's profiles:\n" + known
    parser = argparse.ArgumentParser(
        prog="gamecert",
        description="Specification-driven rules verifier and fuzzer for bot-competition games."
                    "\n\ngames and their profiles:\n" + known,
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"gamecert {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                title="commands (gamecert COMMAND --help for more)")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text, epilog=EXIT_CODES,
                              formatter_class=argparse.RawTextHelpFormatter)

    p = command("rules", "list a game's rules")
    p.add_argument("game", help="one of: " + ", ".join(games()))
    p.add_argument("--profile", help="show the variants this profile selects; each game's "
                                     "profiles:\n" + known)
    p.add_argument("--catalogue", metavar="FILE", help="read this catalogue file instead")
    p.add_argument("--profile-file", metavar="FILE", help=PROFILE_FILE_HELP)
    p.add_argument("--diff", nargs="?", const="", metavar="BASE",
                   help="with --profile-file: what it changes from BASE (a shipped profile, "
                        "or another profile file; default: the profile it extends), rule by "
                        "rule, with the reasons given")
    p.add_argument("--verbose", "-v", action="store_true", help="print each rule's text")

    p = command("certify", "certify an engine: fuzz it against the reference and every rule "
                           "oracle, then print its certificate")
    p.add_argument("game", help="one of: " + ", ".join(games()))
    _engine_args(p)
    p.add_argument("--budget", type=_seconds("--budget", 0), default=20.0, metavar="SECONDS",
                   help="stop starting new rounds after this long (default 20)")
    p.add_argument("--rounds", type=_whole("--rounds", 1, MAX_ROUNDS), metavar="N",
                   help="run exactly N rounds (replays a run exactly with --seed)")
    p.add_argument("--seed", type=_whole("--seed", 0, MAX_SEED), default=0,
                   help="campaign seed (default 0)")
    p.add_argument("--steps", type=_whole("--steps", 1, MAX_STEPS), metavar="N",
                   help="the most steps an example takes (default 25); raise it for an engine "
                   "without load_state whose games are longer, since each of its examples "
                   "starts a new game (give it again with --resume)")
    p.add_argument("--profile", help=profile_help)
    p.add_argument("--profile-file", metavar="FILE", help=PROFILE_FILE_HELP)
    p.add_argument("--report", metavar="DIR", help="write report.json, report.xml, "
                                                   "report.html and trace files here "
                                                   "(always, whatever the outcome)")
    p.add_argument("--baseline", metavar="FILE",
                   help="accepted departures (a previous report.json, or a JSON/TOML "
                        "list, see `gamecert baseline`): shown, but only new departures "
                        "fail the run")
    p.add_argument("--min-exercised", type=_whole("--min-exercised", 1, 10**9), default=1,
                   metavar="N", help="CERTIFIED only if every applicable rule was exercised "
                                     "at least N times, else INCOMPLETE, exit 4 (default 1)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="plain progress lines instead of the live display")
    p.add_argument("--resume", metavar="DIR",
                   help="go on with a campaign that was killed: DIR is its --report folder "
                        "(its seed, profile, budget, rounds and findings are kept; give the "
                        "same engine)")
    p.add_argument("--jobs", "-j", type=_whole("--jobs", 1, 4096), metavar="N",
                   help="play rounds in N worker processes, each with its own engine "
                        "(default: every core); the findings are the same whatever N")
    p.add_argument("--cluster", metavar="tcp://HOST:PORT",
                   help="play rounds on a Dask cluster (dask-scheduler's address; see "
                        "docs/cluster.md); needs gamecert[cluster]")
    p.add_argument("--db", metavar="PATH|none|redis://HOST:PORT/DB",
                   help="the Hypothesis example database rounds replay first and save to "
                        "(default: DIR/.hypothesis/examples with --report, else the cache "
                        "folder); redis:// shares it between machines")

    p = command("baseline", "write a baseline accepting every departure of a report, to "
                            "edit and pass to certify --baseline")
    p.add_argument("report", metavar="REPORT_JSON")
    p.add_argument("-o", "--output", metavar="FILE", default="accepted.json",
                   help="where to write it (default accepted.json)")

    p = command("report", "(re)write report.html from a report folder's report.json and "
                          "trace files")
    p.add_argument("folder", metavar="DIR", help="a folder written by certify --report")

    p = command("replay", "re-run trace files on a fresh engine each, as the campaign ran "
                          "them")
    p.add_argument("traces", nargs="+", metavar="TRACE")
    _engine_args(p)
    p.add_argument("--bot-cmd", metavar="COMMAND", help="replay bot-check traces on this bot")
    p.add_argument("--profile-file", metavar="FILE",
                   help="replay under this season's rules instead of the ones each trace "
                        "recorded (" + PROFILE_FILE_HELP + ")")

    p = command("prove", "z3 proofs about an engine's rule code and boundary cases")
    p.add_argument("game", help="one of: " + ", ".join(games()))
    _engine_args(p)
    p.add_argument("--profile", help=profile_help)
    p.add_argument("--profile-file", metavar="FILE", help=PROFILE_FILE_HELP)

    p = command("serve", "run an in-process engine as a wire-protocol subprocess")
    p.add_argument("game", help="one of: " + ", ".join(games()))
    p.add_argument("--engine", default="reference",
                   help="'reference', 'package.module:attr' or 'path/to/file.py:attr' "
                        "(default reference); 'minimal:<engine>' serves it behind the "
                        "minimum capabilities")
    botcheck.add_parser(sub)
    return parser


def _catalogue(game: str) -> Catalogue:
    if game not in games():
        raise UsageError(f"unknown game {game!r} (known: {', '.join(games())})")
    return load_catalogue(game)


def _profile(args: argparse.Namespace, cat: Catalogue) -> Profile:
    """The profile the options name: --profile-file's, else --profile's (or the default)."""
    path = getattr(args, "profile_file", None)
    if path is None:
        return cat.profile(args.profile)
    if args.profile is not None:
        raise UsageError("give --profile or --profile-file, not both (the file names the "
                         "shipped profile it extends)")
    return read_profile_file(path, cat.game)


def _recipe(args: argparse.Namespace) -> EngineRecipe:
    """How to open the engine the options name (nothing is started yet). An empty or
    unparsable command is the user's mistake, never a reason to test something else."""
    game = getattr(args, "game", None) or "flit"
    if args.engine_cmd is not None:
        try:
            split_command(args.engine_cmd)
        except EngineSpecError as exc:
            raise UsageError(f"--engine-cmd: {exc}") from None
        return engine_recipe(game, command=args.engine_cmd, timeout=args.timeout)
    if args.engine is not None:
        if not args.engine.strip():
            raise UsageError("--engine is empty: give 'reference', 'package.module:attr' or "
                             "'path/to/file.py:attr'")
        return engine_recipe(game, engine=args.engine)
    return engine_recipe(game, command=[sys.executable, "-m", "gamecert", "serve", game],
                         timeout=args.timeout)


def _check_report_dir(folder: str) -> None:
    """--report must name a folder we can write, before any engine starts."""
    path = Path(folder)
    if not folder.strip():
        raise UsageError("--report is empty: name a folder")
    if path.exists() and not path.is_dir():
        raise UsageError(f"--report {folder!r} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--report {folder!r}: cannot create the folder: "
                         f"{exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError(f"--report {folder!r}: the folder is not writable")


def _open(args: argparse.Namespace) -> Engine:
    return _recipe(args).open()


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


def cmd_certify(args: argparse.Namespace) -> int:
    from gamecert.fuzz.baseline import load_baseline

    cat = _catalogue(args.game)
    resume = None
    if args.resume:
        from gamecert.fuzz.checkpoint import load_checkpoint

        resume = load_checkpoint(Path(args.resume))
        if resume.game != args.game:
            raise UsageError(f"{args.resume} holds a {resume.game} campaign, not {args.game}")
        args.report, args.seed, args.profile = args.resume, resume.seed, resume.profile
        if resume.profile_doc is not None:  # the season it ran, whatever the file says now
            args.profile_file = None
        if args.steps is None and resume.steps is not None:  # the examples it was playing
            args.steps = resume.steps
        if args.rounds is None and resume.budget is not None:
            args.budget = resume.budget
    profile = (profile_from_record(resume.profile_doc, f"{args.resume}: checkpoint.json")
               if resume is not None and resume.profile_doc is not None
               else _profile(args, cat))
    baseline = load_baseline(args.baseline, cat) if args.baseline else None
    if args.report is not None:
        _check_report_dir(args.report)
    report_dir = Path(args.report) if args.report else None
    held = _claim_report_dir(report_dir, resuming=resume is not None)
    try:
        return _certify(args, cat, profile, baseline, resume, report_dir)
    finally:
        if held is not None:
            held.release()


def _claim_report_dir(report_dir: Path | None, resuming: bool) -> Claim | None:
    """This campaign's hold on its --report folder (fuzz.report_folder), and a note of
    what an earlier campaign left there and was removed."""
    if report_dir is None:
        return None
    from gamecert.fuzz.report_folder import FolderBusy, claim

    try:
        held = claim(report_dir, resuming=resuming)
    except FolderBusy as exc:
        raise UsageError(f"--report {exc}") from None
    except OSError as exc:
        raise UsageError(f"--report {str(report_dir)!r}: cannot lock the folder: "
                         f"{exc.strerror or exc}") from None
    if held.removed:
        traces = sum(1 for p in held.removed if p.endswith(".json") and "/" in p)
        print(f"note: --report {report_dir} held an earlier campaign's files; removed "
              f"{len(held.removed)} ({traces} trace files), so the folder holds this "
              f"campaign's only", flush=True)
    return held


def _certify(args: argparse.Namespace, cat: Catalogue, profile: Profile,
             baseline: Baseline | None, resume: Checkpoint | None,
             report_dir: Path | None) -> int:
    from gamecert.fuzz.campaign import STEPS_PER_EXAMPLE, CampaignResult, run_campaign
    from gamecert.fuzz.lockstep import Coverage
    from gamecert.fuzz.progress import progress_display
    from gamecert.fuzz.report import (
        render_capabilities,
        render_findings,
        render_fingerprint,
        render_load,
        render_table,
        rule_rows,
        steps_option,
        summary,
        write_report,
    )

    try:
        engine = _recipe(args)
    except EngineSpecError as exc:
        if report_dir is not None:  # a CI job must get its JUnit file even now
            failed = CampaignResult(args.game, profile, _engine_label(args), args.seed,
                                    None if args.rounds else args.budget, 0, 0.0, Coverage(),
                                    unusable=str(exc), min_exercised=args.min_exercised)
            write_report(failed, report_dir)
        raise
    jobs, database = _scale_options(args, report_dir, resume is not None, profile)
    season = (f" (from a profile file: {profile.extends} with {len(profile.changes)} "
              f"change(s))" if profile.extends else "")
    print(f"gamecert certify {args.game}: engine {engine.name}, profile {profile.id}{season}, "
          f"seed {args.seed}, " + (f"{args.rounds} rounds" if args.rounds else
                                   f"budget {args.budget:g} s") +
          (f", baseline {args.baseline}" if baseline else "") +
          (f", resuming after round {resume.rounds} ({resume.elapsed:.1f} s spent, "
           f"{len(resume.departures)} findings)" if resume else "") +
          (f", {args.cluster}" if args.cluster else f", {jobs} jobs") +
          f", example database {database.info()['location'] if database else 'none'}",
          flush=True)
    display = progress_display(args.quiet)
    writes = ReportWrites()  # how the report's writes went, round after round
    from gamecert.fuzz import campaign

    def on_ctrl_c(signum: int, frame: object) -> None:
        campaign.STOP.set()  # finish the example, write the partial report
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second one: at once

    campaign.STOP.clear()
    previous = signal.getsignal(signal.SIGINT)
    if previous is signal.default_int_handler:  # not when the shell told us to ignore it
        with contextlib.suppress(ValueError):  # only the main thread may set handlers
            signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        result = run_campaign(args.game, engine, profile_id=profile.id, profile=profile,
                              budget=None if args.rounds else args.budget, rounds=args.rounds,
                              seed=args.seed, min_exercised=args.min_exercised,
                              steps_per_example=args.steps or STEPS_PER_EXAMPLE,
                              baseline=baseline, progress=display, resume=resume,
                              on_round=_checkpointer(report_dir, writes=writes),
                              jobs=jobs, cluster=args.cluster, database=database,
                              database_info=database.info() if database else None)
    finally:
        display.close()
        if previous is signal.default_int_handler:
            with contextlib.suppress(ValueError):
                signal.signal(signal.SIGINT, previous)
    if result.runner_note:
        print(f"note: {result.runner_note}")
    writes.failed = None  # what counts is whether the last writes, below, succeed
    final = _checkpointer(report_dir, finished=not result.interrupted, writes=writes)
    if final is not None and not result.unusable:
        final(result)
    if result.shrink_allowance is not None:
        print(f"budget {args.budget:g} s; shrink allowance {result.shrink_allowance:g} s (to "
              f"shrink and fingerprint what was found), plus one reply time-out")
    if not result.unusable:
        print(f"engine says: {_said(result.hello)}; gamecert {_version()}")
        rows = rule_rows(result)
        print(render_table(result, rows))
        if result.departures:
            print("\n" + render_findings(result))
        print("\n" + render_fingerprint(result))
        print("\n" + render_capabilities(result))
        load = render_load(result)
        if load:
            print("\n" + load)
    else:
        rows = []
        print(visible(f"ENGINE UNUSABLE: {result.unusable}"))
    if report_dir is not None and writes.failed is None:
        try:
            path = write_report(result, report_dir)
            print(f"\nreport: {path}" + (f" (traces in {path.parent / 'traces'})"
                                          if result.departures else ""))
        except OSError as exc:
            writes.failed = exc
    if result.unusable:
        return _unsaved(writes, report_dir) or EXIT_UNUSABLE
    print("\n" + visible(summary(result, rows)))
    print(f"replay this run: gamecert certify {args.game} {profile_option(profile)} "
          f"--seed {args.seed} --rounds {result.rounds}{steps_option(result)}" +
          (f" (from the same starting example database: {result.database['examples_at_start']}"
           f" examples, snapshot {result.database['snapshot_sha256'][:12]})"
           if result.database and result.database["examples_at_start"] else ""))
    if _unsaved(writes, report_dir):
        return EXIT_BAD_INPUT
    if result.interrupted:
        print("INTERRUPTED: the verdict above covers the rounds that ran"
              + (f"; go on with --resume {report_dir}" if report_dir else ""))
        return EXIT_INTERRUPTED
    return {"violations": EXIT_VIOLATIONS, "incomplete": EXIT_INCOMPLETE}.get(result.status,
                                                                               EXIT_OK)


@dataclass
class ReportWrites:
    """How writing the --report folder went: the last write that failed (None once one
    succeeds again), and whether the user was told."""

    failed: OSError | None = None
    warned: bool = False


def _unsaved(writes: ReportWrites, report_dir: Path | None) -> int:
    """Exit 2 (an unwritable --report folder), saying so, when the campaign's report
    could not be written at the end; else 0. The verdict was printed all the same."""
    if writes.failed is None:
        return 0
    print(visible(f"gamecert: error: --report {report_dir}: the report was not written: "
                  f"{writes.failed} (the verdict above stands; free the space or give "
                  f"another folder, and run again)"), file=sys.stderr)
    return EXIT_BAD_INPUT


def _scale_options(args: argparse.Namespace, report_dir: Path | None,
                   resuming: bool, profile: Profile) -> tuple[int, RoundDatabase | None]:
    """--jobs and --db: how many worker processes, and the example database's snapshot
    (a resumed campaign reads the snapshot its first part took, kept in its folder)."""
    from gamecert.fuzz.campaign import cache_dir
    from gamecert.fuzz.database import (
        database_spec,
        load_snapshot,
        save_snapshot,
        take_snapshot,
    )
    from gamecert.fuzz.parallel import default_jobs
    from gamecert.fuzz.rounds import database_key

    if args.cluster is not None and not args.cluster.startswith(("tcp://", "tls://")):
        raise UsageError(f"--cluster {args.cluster!r}: give the scheduler's address, "
                         f"tcp://HOST:PORT")
    jobs = args.jobs if args.jobs is not None else default_jobs()
    spec = database_spec(args.db, report_dir, cache_dir())
    if not spec:
        return jobs, None
    snap = load_snapshot(report_dir, spec) if resuming and report_dir else None
    if snap is None:
        snap = take_snapshot(spec, database_key(args.game, record_key(profile)))
        if report_dir is not None:
            save_snapshot(snap, report_dir)
    return jobs, snap


def _checkpointer(report_dir: Path | None, finished: bool = False,
                  writes: ReportWrites | None = None,
                  ) -> Callable[[CampaignResult], None] | None:
    """After each round: the report and a checkpoint, so a killed run loses nothing.
    A write that fails (a full disk) does not stop the campaign: it is said once, kept in
    `writes`, and the next round tries again."""
    if report_dir is None:
        return None
    from gamecert.fuzz.checkpoint import save_checkpoint
    from gamecert.fuzz.report import write_report

    def save(result: CampaignResult) -> None:
        try:
            write_report(result, report_dir)
            save_checkpoint(report_dir, game=result.game, profile=result.profile.id,
                            profile_doc=record_of(result.profile),
                            seed=result.seed, budget=result.budget, rounds=result.rounds,
                            elapsed=result.duration, coverage=result.coverage,
                            departures=result.departures, finished=finished,
                            chance=None if result.chance_samples is None
                            else result.chance_samples.portable(),
                            steps=result.steps_per_example)
        except OSError as exc:
            if writes is None:
                raise
            if not writes.warned:
                print(visible(f"gamecert: warning: {exc}; the campaign goes on and says at "
                              f"the end whether its report could be written"),
                      file=sys.stderr, flush=True)
            writes.failed, writes.warned = exc, True
        else:
            if writes is not None:
                writes.failed = None

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


def _said(hello: object) -> str:
    """The engine's hello, in a line: what was certified, in its own words."""
    if not isinstance(hello, dict):
        return repr(hello)[:120]
    caps = hello.get("capabilities")
    return (f"{hello.get('engine')!r} plays {hello.get('game')!r}"
            + (f", capabilities {', '.join(map(str, caps))}" if isinstance(caps, list) else ""))


def cmd_replay(args: argparse.Namespace) -> int:
    from gamecert.fuzz.trace import load_trace, replay

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
    if args.engine.startswith(("minimal:", "bare:")):  # behind the minimum (fuzz.minimal)
        from gamecert.fuzz.engines import object_recipe
        opened = object_recipe(args.game, args.engine).open()
        assert isinstance(opened, InProcessEngine)
        session = opened.session
    elif args.engine == "reference":
        session = reference_session(args.game)
    else:
        from gamecert.fuzz.engines import _import_object
        wrapped = in_process(_import_object(args.engine), args.engine)
        assert isinstance(wrapped, InProcessEngine)
        session = wrapped.session
    serve(session)
    return EXIT_OK


COMMANDS = {"rules": cmd_rules, "certify": cmd_certify, "baseline": cmd_baseline,
            "report": cmd_report, "replay": cmd_replay, "prove": cmd_prove,
            "serve": cmd_serve, "bot-check": botcheck.cmd_bot_check}


def main(argv: list[str] | None = None) -> int:
    from gamecert.fuzz.baseline import BaselineError
    from gamecert.fuzz.checkpoint import CheckpointError
    from gamecert.fuzz.database import DatabaseError
    from gamecert.fuzz.rounds import RoundError
    from gamecert.fuzz.trace import TraceError

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
    from gamecert.fuzz.engines import close_all
    from gamecert.fuzz.parallel import stop_all_workers

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
