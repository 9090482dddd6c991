"""`gamecert bot-check GAME --bot-cmd CMD` and `gamecert replay TRACE --bot-cmd CMD`.

Registered on the main parser by `add_parser`; exit codes as certify: 0 clean (warnings
allowed), 1 findings, 2 bad usage or input, 3 bot unusable.

Time is a promise: `--budget S` is spent on random games then the search, and nothing is
started after it; a query already sent may run one reply limit past it, and shrinking what
was found gets a stated allowance on top (`shrink_allowance`). The run prints the promise
before it starts, and the time it took. The replay line repeats every option that changes
the run.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from gamecert.fuzz.botcheck.codecs import NoCodec, codec_for
from gamecert.fuzz.botcheck.findings import FAIL, Findings, Timing
from gamecert.fuzz.botcheck.process import BotUnusable
from gamecert.fuzz.botcheck.report import describe, render, summary, write_report
from gamecert.fuzz.botcheck.runner import (
    RunOptions,
    ScriptedChooser,
    play_game,
    run,
    scaled_limits,
)
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import BadState
from gamecert.schemas import first_error
from gamecert.spec import CatalogueError, Profile, games, load_catalogue
from gamecert.spec.profile_file import profile_option, read_profile_file, resolve_profile

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT, EXIT_UNUSABLE = 0, 1, 2, 3


def shrink_allowance(budget: float) -> float:
    """Seconds for shrinking what was found, on top of the budget: a quarter of it, 5 to
    30 s (as certify)."""
    return min(30.0, max(5.0, budget / 4))


def add_parser(sub: Any) -> None:
    p = sub.add_parser("bot-check", help="run a competitor's bot over its game's real "
                                         "protocol, the reference engine as referee")
    p.add_argument("game")
    p.add_argument("--bot-cmd", action="append", required=True, metavar="COMMAND",
                   help="the bot, run exactly as the competition runs it; repeat to fill "
                        "more seats with bots (the first is the bot under test)")
    p.add_argument("--seat", type=int, default=1,
                   help="the seat of the bot under test (1-based; default 1); other seats "
                        "take the further --bot-cmd bots in order, then random legal players")
    p.add_argument("--games", type=int, metavar="N",
                   help="play exactly N random games (whole; the search then takes half of "
                        "--budget)")
    p.add_argument("--budget", type=float, default=20.0, metavar="SECONDS",
                   help="play random games, then searched ones, until this long has passed "
                        "(default 20); a query already sent may take one reply limit more, "
                        "shrinking what was found a quarter of it more (5 to 30 s)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--profile", help="rule profile (default: the catalogue's)")
    p.add_argument("--profile-file", metavar="FILE",
                   help="a season's rules: a TOML or JSON profile file that extends a shipped "
                        "profile (schemas/profile.schema.json)")
    p.add_argument("--variant", help="the arena's protocol variant: flit first-line (default) "
                                     "or argument (how the bot learns its number); botwars "
                                     "stdio (default) or http; carcassonne syncs-2025")
    p.add_argument("--bot-url", help="Bot Wars over HTTP: the bot's URL (default: its "
                                     "first stdout line)")
    p.add_argument("--max-queries", type=int, metavar="N",
                   help="end each game after N queries to the bot under test")
    p.add_argument("--time-scale", type=float, default=1.0, metavar="F",
                   help="multiply every time limit by F: this machine is F times slower "
                        "than the competition's (default 1)")
    p.add_argument("--no-search", action="store_true",
                   help="only play random games; by default Hypothesis also chooses games "
                        "(moves, draws, starts) to find rare positions that break the bot, "
                        "and shrinks each failure to the shortest game that shows it")
    p.add_argument("--report", metavar="DIR",
                   help="write report.json, report.xml and one trace per finding here")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress lines")


class BadUsage(Exception):
    pass


def _options(args: argparse.Namespace, game: str, profile_id: str | Profile | None,
             commands_in: list[str], seat: int) -> RunOptions:
    if game not in games():
        raise BadUsage(f"unknown game {game!r} (known: {', '.join(games())})")
    try:
        codec = codec_for(game)
    except NoCodec as exc:
        raise BadUsage(str(exc)) from None
    profile = (profile_id if isinstance(profile_id, Profile)
               else load_catalogue(game).profile(profile_id))
    seats = codec.seats(profile)
    if seat not in seats:
        raise BadUsage(f"--seat must be one of {', '.join(map(str, seats))} for {game} "
                       f"(profile {profile.id})")
    if len(commands_in) > len(seats):
        raise BadUsage(f"{game} has {len(seats)} seats; {len(commands_in)} bots given")
    variant = getattr(args, "variant", None)
    if variant is not None and variant not in codec.variants:
        raise BadUsage(f"unknown protocol variant {variant!r} for {game} (known: "
                       f"{', '.join(codec.variants)})")
    others = [s for s in seats if s != seat]
    commands = {seat: commands_in[0]}
    for s, cmd in zip(others, commands_in[1:], strict=False):
        commands[s] = cmd
    return RunOptions(game, profile, commands, seat, seed=args.seed,
                      variant=variant, bot_url=getattr(args, "bot_url", None),
                      max_queries=getattr(args, "max_queries", None),
                      time_scale=getattr(args, "time_scale", 1.0))


def cmd_bot_check(args: argparse.Namespace) -> int:
    try:
        if args.profile_file is not None and args.profile is not None:
            raise BadUsage("give --profile or --profile-file, not both")
        chosen = (read_profile_file(args.profile_file, args.game)
                  if args.profile_file is not None and args.game in games() else args.profile)
        options = _options(args, args.game, chosen, args.bot_cmd, args.seat)
    except (BadUsage, CatalogueError) as exc:
        print(f"gamecert: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.time_scale <= 0:
        print("gamecert: error: --time-scale must be positive", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.games is not None and args.games < 1:
        print("gamecert: error: --games must be at least 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.budget is not None and args.budget <= 0:
        print("gamecert: error: --budget must be positive", file=sys.stderr)
        return EXIT_BAD_INPUT
    options.games = args.games
    options.budget = None if args.games else args.budget
    if not args.quiet:
        options.progress = lambda line: print(f"  {line}", file=sys.stderr, flush=True)
    codec = codec_for(options.game)
    limits = scaled_limits(codec, options)
    reply_s = max(limits.reply_ms, limits.first_reply_ms or 0) / 1000
    # with --games the random games are played whole; the budget bounds the rest
    timed_s = args.budget / 2 if options.games else args.budget
    shrink_s = 0.0 if args.no_search else shrink_allowance(args.budget)
    promise = None if options.games else timed_s + reply_s + shrink_s
    print(f"gamecert bot-check {options.game}: bot {args.bot_cmd[0]!r} in seat {args.seat}, "
          f"profile {options.profile.id}, protocol variant "
          f"{options.variant or next(iter(codec.variants))}, seed {options.seed}, "
          + (f"{options.games} games" if options.games else f"budget {options.budget:g} s")
          + ("" if promise is None else
             f"; at most {promise:.1f} s in all ({timed_s:g} s of play, one reply limit "
             f"{reply_s:g} s, {shrink_s:g} s to shrink findings)"), flush=True)
    started = time.monotonic()
    if options.budget is not None:
        # half for random games, half for the search
        options.deadline = started + (options.budget / 2 if not args.no_search
                                      else options.budget)
    result = run(codec, options)
    play_end = started + timed_s if options.games is None else time.monotonic() + timed_s
    options.deadline = play_end
    if not args.no_search and not result.unusable:
        from gamecert.fuzz.botcheck.search import search  # Hypothesis: only when searching

        if options.progress:
            options.progress("search: Hypothesis chooses the games and shrinks failures")
        left = play_end - time.monotonic()
        if left > 0:
            search(codec, options, result, options.games or 200, left)
        result.duration = time.monotonic() - started
    if not args.no_search and not result.unusable:
        from gamecert.fuzz.botcheck.shrink import shrink_finding

        # what random play found and the search did not shorten: shrunk here, within the
        # stated allowance (the bot started afresh for every attempt)
        shrink_end = play_end + shrink_s
        todo = [f for f in result.findings.failures
                if f.trace is not None and not f.trace.get("shrunk")]
        for i, f in enumerate(todo):
            left = shrink_end - time.monotonic()
            if left <= 0:
                break
            shrink_finding(codec, options, f, budget=min(10.0, left / (len(todo) - i)),
                           deadline=shrink_end)
        result.duration = time.monotonic() - started
    result.promise_s = promise
    result.replay = replay_command(args, options, len(result.games))
    if result.unusable:
        print(summary(result))
        return EXIT_UNUSABLE
    print(render(result))
    if args.report:
        path = write_report(result, Path(args.report))
        print(f"\nreport: {path}")
    print("\n" + summary(result))
    print(f"replay this run: {result.replay}")
    return EXIT_FINDINGS if result.findings.failures else EXIT_OK


def replay_command(args: argparse.Namespace, options: RunOptions, games: int) -> str:
    """The command that plays this run again: every option that changes it, with the games
    it played counted (the search, if any, gets the same share of --budget)."""
    words = ["gamecert", "bot-check", options.game]
    for command in args.bot_cmd:
        words += ["--bot-cmd", command]
    words += ["--seat", str(args.seat), *shlex.split(profile_option(options.profile))]
    if options.variant is not None:
        words += ["--variant", options.variant]
    if options.bot_url is not None:
        words += ["--bot-url", options.bot_url]
    if options.max_queries is not None:
        words += ["--max-queries", str(options.max_queries)]
    if options.time_scale != 1.0:
        words += ["--time-scale", f"{options.time_scale:g}"]
    words += ["--seed", str(options.seed), "--games", str(games)]
    if args.no_search:
        words.append("--no-search")
    elif args.budget is not None:
        words += ["--budget", f"{args.budget:g}"]
    return shlex.join(words)


def cmd_replay_bot(args: argparse.Namespace) -> int:
    """`gamecert replay TRACE --bot-cmd CMD`: the traced game again, the bot started fresh;
    stops at the first failure."""
    code = EXIT_OK
    for path in args.traces:
        try:
            doc = json.loads(Path(path).read_text("utf-8"))
            problem = first_error("bot-trace", doc)
            if problem:
                raise BadUsage(f"not a bot-check trace (schemas/bot-trace.schema.json): "
                               f"{problem}")
            options = _options(argparse.Namespace(seed=doc.get("seed", 0),
                                                  variant=doc.get("variant"),
                                                  time_scale=doc.get("time_scale", 1.0)),
                               doc["game"],
                               resolve_profile(doc["game"], doc["profile"], doc.get("profile_doc"),
                                               "profile_doc"),
                               [args.bot_cmd], doc["seat"])
        except (OSError, ValueError, KeyError, TypeError, BadUsage, CatalogueError) as exc:
            print(f"gamecert: error: {path}: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        codec = codec_for(options.game)
        want = doc.get("finding") or {}
        if isinstance(want.get("query"), int):
            options.max_queries = want["query"]  # the traced prefix, not a whole new game
        chooser = ScriptedChooser(doc["choices"], f"{options.seed}:{doc.get('game_number', 1)}")
        findings = Findings()
        timings = {options.seat: Timing(scaled_limits(codec, options).reply_ms)}
        try:
            start = doc.get("start")
            state = (None if start is None else
                     reference_game(options.game).load(options.profile, start))
            _, new = play_game(codec, options, 1, chooser, findings, timings,
                               stop_at_failure=True, start=state)
        except BotUnusable as exc:
            print(f"BOT UNUSABLE: {exc}")
            return EXIT_UNUSABLE
        except BadState as exc:
            print(f"gamecert: error: {path}: the trace's start is not a position: {exc}",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
        fails = [f for f in new if f.severity == FAIL]
        if not fails:
            print(f"{path}: clean: the bot played the traced game without a finding "
                  f"(recorded: [{want.get('rule')}] {want.get('kind')})")
            continue
        code = EXIT_FINDINGS
        f = fails[0]
        same = f.rule == want.get("rule") and f.kind == want.get("kind")
        print(f"{path}: {'reproduced' if same else 'a different finding'}: "
              + describe(1, f))
    return code
