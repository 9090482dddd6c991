"""bot-check speed figures: what the harness costs beside the bots it drives.

    python benchmarks/bot_check_bench.py [--games 5]

For each protocol, games of the reference with bots from examples/bots/<game>/good.py in
every seat (Carcassonne: four bots through real named pipes). Per game:
  wall     = the whole game, bots started and stopped;
  start    = starting the bots (and, for Carcassonne, opening their pipes);
  bots     = the bots' reply times, from the last byte sent to the last byte received;
  harness  = wall - start - bots: the engine, the referee, the codec, the transcripts.
The goal for SYNCS Carcassonne is harness <= 150 ms a game. Baseline, measured in this run:
the same game played by the reference's random players in-process, no bots, no protocol.
Prints medians over the games, and the harness's cost per message.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from gamecert.fuzz.botcheck.findings import Findings, Timing
from gamecert.fuzz.botcheck.protocols import codec_for
from gamecert.fuzz.botcheck.runner import RandomChooser, RunOptions, play_game
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue

BOTS = Path(__file__).resolve().parents[1] / "examples" / "bots"
SEATS = {"carcassonne": 4, "botwars": 2, "flit": 4}
MAX_QUERIES = {"flit": 500}  # a Flit game runs to 8,192 moves a bot; 500 show the rate


def engine_only(game_name: str, seed: int) -> float:
    """Seconds for one random game of the reference alone."""
    game = reference_game(game_name)
    profile = load_catalogue(game_name).profile()
    rng = random.Random(seed)
    state = game.initial(profile)
    t0 = time.perf_counter()
    steps = 0
    limit = MAX_QUERIES.get(game_name, 10**9) * SEATS[game_name] * 3
    while game.current(state) != TERMINAL and steps < limit:
        chance = game.current(state) == CHANCE
        action = game.random_chance(state, rng) if chance else game.random_action(state, rng)
        state, _ = game.apply(state, action)
        steps += 1
    return time.perf_counter() - t0


def one_game(game_name: str, number: int) -> dict[str, float]:
    codec = codec_for(game_name)
    profile = load_catalogue(game_name).profile()
    command = f"{sys.executable} {BOTS / game_name / 'good.py'}"
    commands = dict.fromkeys(range(1, SEATS[game_name] + 1), command)
    options = RunOptions(game_name, profile, commands, 1, games=1, budget=None,
                         max_queries=MAX_QUERIES.get(game_name), time_scale=10)
    timings: dict[int, Timing] = {}
    findings = Findings()
    t0 = time.perf_counter()
    record, _ = play_game(codec, options, number, RandomChooser(f"bench:{number}"), findings,
                          timings)
    wall = time.perf_counter() - t0
    if findings.failures:
        raise SystemExit(f"{game_name}: the correct bot failed: {findings.failures[0].message}")
    bots = sum(sum(t.samples) for t in timings.values()) / 1000
    messages = sum(len(t.samples) for t in timings.values())
    return {"wall": wall, "start": record.startup_s, "bots": bots,
            "harness": wall - record.startup_s - bots, "messages": messages}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    for game_name in ("carcassonne", "botwars", "flit"):
        runs = [one_game(game_name, i) for i in range(args.games)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        base = statistics.median(engine_only(game_name, i) for i in range(args.games))
        per_msg = med["harness"] / max(1, med["messages"]) * 1e6
        print(f"{game_name:12} {SEATS[game_name]} bots: wall {med['wall'] * 1000:7.1f} ms, "
              f"start {med['start'] * 1000:6.1f} ms, bots {med['bots'] * 1000:6.1f} ms, "
              f"harness {med['harness'] * 1000:6.1f} ms for {med['messages']:.0f} replies "
              f"({per_msg:.0f} us a reply); engine alone {base * 1000:.1f} ms "
              f"(harness/engine {med['harness'] / base:.1f}x)")
    print("goal: SYNCS Carcassonne harness <= 150 ms a game")


if __name__ == "__main__":
    main()
