"""Carcassonne speed: `python benchmarks/speed/carcassonne_bench.py [--games N] [--repeats R]`.

Four players, random legal play, river included:

* full games per second and milliseconds per game (median of the repeats) under each stage's
  profile (syncs-2025-base, -farms, -tower; `--profiles` to choose), with each profile's
  time as a ratio of the first one's, measured in the same run; target: a stage-1 game in
  20 ms or less on one core;
* legal-placement enumerations per second, on the place steps of a few such games;
* differential lockstep steps per second: the reference as the engine under test, every
  oracle judging every step, beside the reference's own step rate (apply alone) measured in
  the same run on the same moves, and their ratio.

Single-threaded throughout, so the figures are per core.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

try:  # run as a script, benchmarks/ is on the path; loaded from the tests, the repository
    import overhead  # benchmarks/speed/overhead.py, beside this script
except ImportError:
    from benchmarks.speed import overhead

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import AGREED_BATCH, Coverage, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import PLACE
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile, load_catalogue

GAME = Carcassonne()


def random_move(state: CarcState, rng: random.Random) -> Any:
    if GAME.current(state) == CHANCE:
        return GAME.random_chance(state, rng)
    return GAME.random_action(state, rng)


def play(start: CarcState, rng: random.Random) -> list[tuple[CarcState, Any]]:
    """Every (state, move made in it) of one random game from `start` to its end."""
    out, state = [], start
    while GAME.current(state) != TERMINAL:
        move = random_move(state, rng)
        out.append((state, move))
        state = GAME.apply(state, move)[0]
    return out


def timed(fn: Callable[[], int], repeats: int) -> tuple[float, int]:
    """Median seconds of `repeats` runs of fn, and what the last run counted."""
    times, count = [], 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        count = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), count


def bench_games(profile: Profile, games: int, repeats: int, baseline: float | None = None
                ) -> float:
    start = GAME.initial(profile)

    def run() -> int:
        rng = random.Random(2025)
        moves = 0
        for _ in range(games):
            state = start
            while GAME.current(state) != TERMINAL:
                state = GAME.apply(state, random_move(state, rng))[0]
                moves += 1
        return moves

    seconds, moves = timed(run, repeats)
    ratio = "" if baseline is None else f", {seconds / baseline:.2f}x the first profile's time"
    print(f"full games, {profile.id}: {games} random 4-player games (river included, "
          f"{moves / games:.0f} moves each), median of {repeats}: {games / seconds:.1f} "
          f"games/s, {1000 * seconds / games:.2f} ms/game{ratio}")
    return seconds


def bench_placements(profile: Profile, repeats: int) -> None:
    rng = random.Random(7)
    places = [s for _ in range(5) for s, _ in play(GAME.initial(profile), rng)
              if s.step == PLACE]

    def run() -> int:
        return sum(len(GAME.placements(s)) for _ in range(20) for s in places)

    seconds, found = timed(run, repeats)
    n = 20 * len(places)
    print(f"legal placements: {n} enumerations (hand of up to 3 tiles, every open cell x 4 "
          f"rotations, {found / n:.1f} legal on average), median of {repeats}: "
          f"{n / seconds:,.0f} enumerations/s, {1e6 * seconds / n:.1f} us each")


def bench_lockstep(profile: Profile, games: int, repeats: int) -> None:
    """The same random games twice: applied by the reference alone, and fed to a lockstep of
    the reference (as the engine under test) beside the reference, all oracles on."""
    rng = random.Random(11)
    scripts = [[GAME.action_to_json(s, a) for s, a in play(GAME.initial(profile), rng)]
               for _ in range(games)]
    oracles = oracles_for("carcassonne")

    def alone() -> int:
        steps = 0
        for script in scripts:
            state = GAME.initial(profile)
            for action in script:
                state = GAME.apply(state, GAME.action_from_json(state, action))[0]
                steps += 1
        return steps

    def lockstep() -> int:
        steps = 0
        for script in scripts:
            ls = Lockstep(GAME, InProcessEngine(reference_session("carcassonne")), profile,
                          oracles, coverage=Coverage(), defer=AGREED_BATCH)  # as a campaign's
            ls.start({"kind": "new_game"})
            for action in script:
                ls.step(action)
                steps += 1
            ls.finish()
        return steps

    ref_s, steps = timed(alone, repeats)
    ls_s, _ = timed(lockstep, repeats)
    print(f"lockstep: {steps} steps over {games} games, median of {repeats}: "
          f"{steps / ls_s:,.0f} lockstep steps/s (engine + reference + {len(oracles)} oracles "
          f"per step) beside {steps / ref_s:,.0f} reference steps/s alone; "
          f"ratio {ref_s / ls_s:.3f} ({ls_s / ref_s:.0f}x the reference's own time)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs (median reported)")
    parser.add_argument("--lockstep-games", type=int, default=5,
                        help="games played through the lockstep")
    parser.add_argument("--profiles", default="syncs-2025-base,syncs-2025-farms,syncs-2025-tower",
                        help="comma-separated profiles for the full-game figures (the first "
                             "is the baseline; placements and lockstep use it)")
    parser.add_argument("--clock", choices=sorted(overhead.CLOCKS), default="wall",
                    help="the overhead's clock: wall, or this process's CPU time on a busy "
                         "machine")
    parser.add_argument("--overhead-only", action="store_true",
                        help="print only the harness overhead figures (speed/overhead.py)")
    args = parser.parse_args(argv)
    overhead.use_clock(args.clock)
    catalogue = load_catalogue("carcassonne")
    profiles = [catalogue.profile(pid) for pid in args.profiles.split(",")]
    profile = profiles[0]
    if args.overhead_only:
        overhead.run("carcassonne", profile.id, args.lockstep_games, args.repeats)
        return
    print(f"Carcassonne benchmarks, profiles {', '.join(p.id for p in profiles)}; Python "
          f"{platform.python_version()} on {platform.machine()}, one thread")
    baseline = bench_games(profile, args.games, args.repeats)
    for other in profiles[1:]:
        bench_games(other, args.games, args.repeats, baseline)
    bench_placements(profile, args.repeats)
    bench_lockstep(profile, args.lockstep_games, args.repeats)
    overhead.run("carcassonne", profile.id, args.lockstep_games, args.repeats)


if __name__ == "__main__":
    main(sys.argv[1:])
