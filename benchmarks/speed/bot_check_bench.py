"""bot-check figures: the time a game takes and bot-check's own share of it; and, with
--matrix, every example bot in every seat over many games, with what bot-check found.

    python benchmarks/speed/bot_check_bench.py [--games 5]
    python benchmarks/speed/bot_check_bench.py --matrix 40 [--game carcassonne]

Speed: for each protocol, games of the reference with the example bots in every seat
(Carcassonne: four starter-kit bots through real named pipes; Bot Wars over stdio and over
the original server's HTTP form). Per game:
  wall     = the whole game, bots started and stopped;
  start    = starting the bots (and, for Carcassonne, opening their pipes);
  bots     = the bots' reply times, from the last byte sent to the last byte received;
  harness  = wall - start - bots: the engine, the referee, the codec, the transcripts;
  share    = harness / wall, bot-check's own part of the game;
  CPU      = the CPU time bot-check's process used in the game (its threads included): on a
             busy machine the wall figures above also hold the time it waited for a CPU.
Baseline, measured in this run: the same game played by the reference's random players
in-process, no bots, no protocol. Prints medians over the games.

Matrix: each bot of the table below in each seat, N games each (a faulty bot's game ends at
its first failure), and per bot and seat the games played, how many were clean, the findings
by rule and verdict, and the seconds taken. The machine's cores and load are printed first:
timing verdicts depend on them.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from gamecert.fuzz.botcheck.codecs import codec_for
from gamecert.fuzz.botcheck.findings import Findings, Timing
from gamecert.fuzz.botcheck.runner import RandomChooser, RunOptions, play_game, run
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
# (label, game, bot per seat, variant, queries cap)
SPEED = [
    ("carcassonne", "carcassonne", ["greedy_scorer.py", "random_player.py",
                                    "meeple_hoarder.py", "stdout_chatter.py"], None, None),
    ("botwars stdio", "botwars", ["good.py", "good.py"], None, None),
    ("botwars http", "botwars", ["good_http.py", "good_http.py"], "http", None),
    ("flit", "flit", ["good.py"] * 4, None, 500),  # 8,192 moves a bot: 500 show the rate
    ("kingdomino", "kingdomino", ["good.py"] * 4, None, None),
]
# (game, bot and its arguments, variant, time scale, queries cap): correct bots first
MATRIX = [
    ("carcassonne", "random_player.py", None, 4.0, None),
    ("carcassonne", "greedy_scorer.py", None, 4.0, None),
    ("carcassonne", "meeple_hoarder.py", None, 4.0, None),
    ("carcassonne", "stdout_chatter.py", None, 4.0, None),
    ("carcassonne", "river_unconnected.py", None, 4.0, None),
    ("carcassonne", "late_reply.py 0.8", None, 0.25, None),
    ("carcassonne", "crash_mid_game.py", None, 4.0, None),
    ("carcassonne", "debug_to_pipe.py", None, 4.0, None),
    ("botwars", "good.py", None, 4.0, None),
    ("botwars", "good_http.py", "http", 4.0, None),
    ("botwars", "slow_once.py", None, 1.0, 6),
    ("botwars", "crash.py", None, 4.0, None),
    ("botwars", "debug_print.py", None, 4.0, None),
    ("botwars", "diagonal.py", None, 4.0, 4),
    ("botwars", "http_faulty.py slow 0.8", "http", 0.1, 4),
    ("botwars", "http_error.py", "http", 4.0, 4),
    ("flit", "good.py", None, 4.0, 200),
    ("flit", "slow_once.py", None, 2.0, 4),
    ("flit", "crash.py", None, 2.0, 11),
    ("flit", "debug_print.py", None, 2.0, 8),
    ("flit", "foreign_piece.py", None, 2.0, 6),
    ("kingdomino", "good.py", None, 4.0, None),
    ("kingdomino", "slow_once.py", None, 2.0, None),
    ("kingdomino", "crash.py", None, 2.0, None),
    ("kingdomino", "debug_print.py", None, 2.0, None),
    ("kingdomino", "bad_pick.py", None, 2.0, None),
]


def command(game: str, name: str) -> str:
    if str(ROOT) not in sys.path:  # examples/ is the repository's, not installed
        sys.path.insert(0, str(ROOT))
    from examples.bots import path_of

    bot, *args = name.split()
    runner = "node" if bot.endswith(".js") else sys.executable
    return shlex.join([runner, str(path_of(game, bot)), *args])


def engine_only(game_name: str, seed: int, cap: int | None) -> float:
    """Seconds for one random game of the reference alone."""
    game = reference_game(game_name)
    profile = load_catalogue(game_name).profile()
    rng = random.Random(seed)
    state = game.initial(profile)
    t0 = time.perf_counter()
    steps, limit = 0, (cap or 10**9) * 4 * 3
    while game.current(state) != TERMINAL and steps < limit:
        chance = game.current(state) == CHANCE
        action = game.random_chance(state, rng) if chance else game.random_action(state, rng)
        state, _ = game.apply(state, action)
        steps += 1
    return time.perf_counter() - t0


def one_game(game_name: str, bots: list[str], variant: str | None, cap: int | None,
             number: int) -> dict[str, float]:
    codec = codec_for(game_name)
    profile = load_catalogue(game_name).profile()
    commands = {seat: command(game_name, bot) for seat, bot in enumerate(bots, 1)}
    options = RunOptions(game_name, profile, commands, 1, games=1, budget=None,
                         max_queries=cap, variant=variant, time_scale=10)
    timings: dict[int, Timing] = {}
    findings = Findings()
    t0, cpu0 = time.perf_counter(), time.process_time()
    record, _ = play_game(codec, options, number, RandomChooser(f"bench:{number}"), findings,
                          timings)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    if findings.failures:
        raise SystemExit(f"{game_name}: a correct bot failed: {findings.failures[0].message}")
    bots_s = sum(sum(t.samples) for t in timings.values()) / 1000
    harness = wall - record.startup_s - bots_s
    return {"wall": wall, "start": record.startup_s, "bots": bots_s, "harness": harness,
            "share": harness / wall, "cpu": cpu,
            "messages": sum(len(t.samples) for t in timings.values())}


def speed(games: int) -> None:
    for label, game_name, bots, variant, cap in SPEED:
        runs = [one_game(game_name, bots, variant, cap, i) for i in range(games)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        base = statistics.median(engine_only(game_name, i, cap) for i in range(games))
        per_msg = med["harness"] / max(1, med["messages"]) * 1e6
        print(f"{label:14} {len(bots)} bots: {med['wall'] * 1000:7.1f} ms a game (start "
              f"{med['start'] * 1000:6.1f} ms, bots {med['bots'] * 1000:6.1f} ms, harness "
              f"{med['harness'] * 1000:6.1f} ms: {med['share']:.0%} of the game, "
              f"{per_msg:.0f} us a reply over {med['messages']:.0f} replies; bot-check's own "
              f"CPU {med['cpu'] * 1000:.1f} ms); the engine alone {base * 1000:.1f} ms "
              f"(harness/engine {med['harness'] / base:.1f}x)", flush=True)
    print("goal: SYNCS Carcassonne harness <= 150 ms a game")


def matrix(games: int, only: str | None) -> None:
    print(f"this machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; "
          f"{games} games per bot and seat")
    print(f"{'game':12} {'bot':26} {'seat':>4} {'games':>5} {'clean':>5}  {'s':>6}  found")
    for game_name, bot, variant, scale, cap in MATRIX:
        if only and game_name != only:
            continue
        codec = codec_for(game_name)
        profile = load_catalogue(game_name).profile()
        for seat in codec.seats(profile):
            options = RunOptions(game_name, profile, {seat: command(game_name, bot)}, seat,
                                 seed=seat, games=games, budget=None, max_queries=cap,
                                 variant=variant, time_scale=scale)
            t0 = time.perf_counter()
            result = run(codec, options)
            seconds = time.perf_counter() - t0
            clean = sum(1 for g in result.games if not g.failures)
            found: Counter[str] = Counter()
            for f in result.findings.items:
                warn = ", warning" if f.severity == "warn" else ""
                found[f"{f.rule} {f.kind} ({f.verdict}{warn})"] += f.repeats
            notes = Counter(g.ended for g in result.games if g.ended not in ("over",
                                                                             "stopped"))
            shown = "; ".join(f"{k} x{n}" for k, n in found.items()) or "-"
            if notes:
                shown += "; ended early: " + ", ".join(f"{k} x{n}" for k, n in notes.items())
            print(f"{game_name:12} {bot:26} {seat:>4} {len(result.games):>5} {clean:>5}  "
                  f"{seconds:6.1f}  {shown}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games per protocol (speed)")
    parser.add_argument("--matrix", type=int, metavar="N",
                        help="every example bot in every seat, N games each")
    parser.add_argument("--game", help="with --matrix: this game only")
    args = parser.parse_args()
    if args.matrix:
        matrix(args.matrix, args.game)
    else:
        speed(args.games)


if __name__ == "__main__":
    main()
