"""The `gamecert` command's arguments: the parser (every command, its options and their
limits), and what the arguments name: a catalogue, an engine recipe, a report folder.
Bad arguments are a `UsageError` (exit code 2), never a traceback. Runs nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

from gamecert.fuzz.botcheck import cli as botcheck
from gamecert.fuzz.engines.engine import Engine, EngineSpecError
from gamecert.fuzz.engines.recipes import EngineRecipe, engine_recipe, split_command
from gamecert.spec import Catalogue, CatalogueError, Profile, games, load_catalogue
from gamecert.spec.profile_file import read_profile_file

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
