"""Kingdomino speed: `python benchmarks/speed/kingdomino_bench.py [--games N] [--repeats R]`.

Four players (profile legend), random legal play:

* full games per second and milliseconds per game (median of the repeats); goal: at least
  1,000 games/s on one core. The position caches are cleared before every timed run, and
  each run plays new games, so no run reuses another's work;
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
from gamecert.oracles.kingdomino import board as kd_board
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.kingdomino import KdState, Kingdomino
from gamecert.reference_engine.kingdomino import bitboard as kd_bitboard
from gamecert.reference_engine.kingdomino import engine as kd_engine
from gamecert.spec import Profile, load_catalogue

GAME = Kingdomino()


def clear_caches() -> None:
    """Every timed run starts cold: the engine's and the oracles' position caches."""
    kd_engine._fast_placements.cache_clear()
    kd_engine._fast_masks.cache_clear()
    kd_engine._rows.cache_clear()
    kd_bitboard.clear()
    kd_board.fits_somewhere.cache_clear()
    kd_board.extent.cache_clear()


class HooksOnly(Kingdomino):
    """The reference with its bitboard paths off: placements listed and zones scanned through
    the rule hooks alone, as a mutant's are (the in-run baseline of the full-games figure)."""

    def __init__(self) -> None:
        super().__init__()
        self._fast = self._fast_zones = False


def random_move(state: KdState, rng: random.Random, game: Kingdomino = GAME) -> Any:
    if game.current(state) == CHANCE:
        return game.random_chance(state, rng)
    return game.random_action(state, rng)


def play(start: KdState, rng: random.Random) -> list[tuple[KdState, Any]]:
    """Every (state, move made in it) of one random game from `start` to its end."""
    out, state = [], start
    while GAME.current(state) != TERMINAL:
        move = random_move(state, rng)
        out.append((state, move))
        state = GAME.apply(state, move)[0]
    return out


def timed(fn: Callable[[int], int], repeats: int) -> tuple[float, int]:
    """Median seconds of `repeats` runs of fn(run number), and what the last run counted."""
    times, count = [], 0
    for i in range(repeats):
        clear_caches()
        t0 = time.perf_counter()
        count = fn(i)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), count


def bench_games(profile: Profile, games: int, repeats: int, game: Kingdomino = GAME) -> float:
    """Random full games per second (printed unless `game` is a baseline)."""
    start = game.initial(profile)

    def run(i: int) -> int:
        rng = random.Random(2025 + i)
        moves = 0
        for _ in range(games):
            state = start
            while game.current(state) != TERMINAL:
                state = game.apply(state, random_move(state, rng, game))[0]
                moves += 1
        return moves

    seconds, moves = timed(run, repeats)
    if game is GAME:
        print(f"full games: {games} random {profile.param('KD-PLAYERS', 'players')}-player "
              f"games ({moves / games:.0f} steps each: draws and PUT + PICK sequences), median "
              f"of {repeats}: {games / seconds:,.1f} games/s, {1000 * seconds / games:.2f} "
              f"ms/game (goal >= 1,000 games/s)")
    return games / seconds


def bench_baseline(profile: Profile, games: int, repeats: int, rate: float) -> None:
    """The first games of the same seeds by the hooks-only engine, measured in this run (a
    tenth as many: it is slow), as a ratio that the machine's load does not move."""
    few = max(games // 10, 2)
    base = bench_games(profile, few, repeats, HooksOnly())
    print(f"baseline: {few} of the same games with the bitboard paths off (rule hooks "
          f"alone, as a mutant plays), median of {repeats}: {base:,.1f} games/s; the "
          f"reference is {rate / base:.1f}x that")


def bench_placements(profile: Profile, repeats: int) -> None:
    rng = random.Random(7)
    places = [s for _ in range(5) for s, _ in play(GAME.initial(profile), rng)
              if GAME.current(s) > 0 and s.turn > 1]

    def run(i: int) -> int:
        found = 0
        for _ in range(20):
            clear_caches()
            for s in places:
                tile, p = s.placing[s.nxt]
                found += len(GAME.placements(s, s.grids[p - 1], tile))
        return found

    seconds, found = timed(run, repeats)
    n = 20 * len(places)
    print(f"legal placements: {n} enumerations (every free cell x 4 rotations, "
          f"{found / n:.1f} legal on average), median of {repeats}: "
          f"{n / seconds:,.0f} enumerations/s, {1e6 * seconds / n:.1f} us each")


def bench_lockstep(profile: Profile, games: int, repeats: int) -> None:
    """The same random games twice: applied by the reference alone, and fed to a lockstep of
    the reference (as the engine under test) beside the reference, all oracles on."""
    rng = random.Random(11)
    scripts = [[GAME.action_to_json(s, a) for s, a in play(GAME.initial(profile), rng)]
               for _ in range(games)]
    oracles = oracles_for("kingdomino")

    def alone(i: int) -> int:
        steps = 0
        for script in scripts:
            state = GAME.initial(profile)
            for action in script:
                state = GAME.apply(state, GAME.action_from_json(state, action))[0]
                steps += 1
        return steps

    def lockstep(i: int) -> int:
        steps = 0
        for script in scripts:
            ls = Lockstep(GAME, InProcessEngine(reference_session("kingdomino")), profile,
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per timed run")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs (median reported)")
    parser.add_argument("--lockstep-games", type=int, default=5,
                        help="games played through the lockstep")
    parser.add_argument("--profile", default="legend", help="rule profile (default legend)")
    parser.add_argument("--clock", choices=sorted(overhead.CLOCKS), default="wall",
                    help="the overhead's clock: wall, or this process's CPU time on a busy "
                         "machine")
    parser.add_argument("--overhead-only", action="store_true",
                        help="print only the harness overhead figures (speed/overhead.py)")
    args = parser.parse_args(argv)
    overhead.use_clock(args.clock)
    profile = load_catalogue("kingdomino").profile(args.profile)
    if args.overhead_only:
        overhead.run("kingdomino", profile.id, args.lockstep_games, args.repeats)
        return
    print(f"Kingdomino benchmarks, profile {profile.id}; Python {platform.python_version()} "
          f"on {platform.machine()}, one thread")
    rate = bench_games(profile, args.games, args.repeats)
    bench_baseline(profile, args.games, args.repeats, rate)
    bench_placements(profile, args.repeats)
    bench_lockstep(profile, args.lockstep_games, args.repeats)
    overhead.run("kingdomino", profile.id, args.lockstep_games, args.repeats)


if __name__ == "__main__":
    main(sys.argv[1:])
