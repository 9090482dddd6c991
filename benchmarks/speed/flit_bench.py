"""Flit speed figures: the reference, the wire protocol and the differential harness.

    python benchmarks/speed/flit_bench.py [--repeats 5] [--steps 4000]

Prints medians over repeats. The harness overhead is a ratio against the bare engine steps
it drives, both measured in this run on the same action sequence:
  bare    = engine under test's apply + the reference's apply, nothing else;
  harness = Lockstep.step (both applies, canonical JSON compared, every oracle run).
"""

from __future__ import annotations

import argparse
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

from gamecert.fuzz.engines.engine import Engine, InProcessEngine
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.step.lockstep import AGREED_BATCH, Coverage, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.flit import Flit
from gamecert.spec import load_catalogue

PROFILE = load_catalogue("flit").profile()


def median_of(repeats: int, fn: Callable[[], float]) -> float:
    return statistics.median(fn() for _ in range(repeats))


def random_games(n_games: int, seed: int) -> tuple[float, float]:
    """(games per second, turns per second) of random play to the end."""
    game, rng = Flit(), random.Random(seed)
    turns, t0 = 0, time.perf_counter()
    for _ in range(n_games):
        s = game.initial(PROFILE)
        while (who := game.current(s)) != TERMINAL:
            s, _ = game.apply(s, game.random_chance(s, rng) if who == CHANCE
                              else game.random_action(s, rng))
        turns += s.turn
    dt = time.perf_counter() - t0
    return n_games / dt, turns / dt


def action_script(steps: int, seed: int) -> list[Any]:
    """A random game's actions (moves, no moves, time-outs, chance) as JSON."""
    game, rng = Flit(), random.Random(seed)
    s, script = game.initial(PROFILE), []
    while len(script) < steps and game.current(s) != TERMINAL:
        who = game.current(s)
        if who == CHANCE:
            a = game.random_chance(s, rng)
        else:
            r = rng.random()
            # no moves now and then, rarely enough that all-pass seldom ends the game early
            a = ("timeout",) if r < 0.01 else ("pass",) if r < 0.03 else game.random_action(s, rng)
        script.append(game.action_to_json(s, a))
        s, _ = game.apply(s, a)
    return script


def bare_steps(engine: Engine, script: list[Any]) -> float:
    ref = Flit()
    engine.new_game()
    s = ref.initial(PROFILE)
    t0 = time.perf_counter()
    for action in script:
        engine.apply(action)
        s, _ = ref.apply(s, ref.action_from_json(s, action))
    return len(script) / (time.perf_counter() - t0)


def harness_steps(engine: Engine, script: list[Any]) -> float:
    ls = Lockstep(Flit(), engine, PROFILE, oracles_for("flit"), coverage=Coverage(),
                  defer=AGREED_BATCH)  # as a campaign's
    ls.start({"kind": "new_game"})
    t0 = time.perf_counter()
    for action in script:
        ls.step(action)
    ls.finish()
    return len(script) / (time.perf_counter() - t0)


def round_trips(engine: SubprocessEngine, n: int, op: str) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        engine.request(op)
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--games", type=int, default=2, help="full games per repeat")
    ap.add_argument("--clock", choices=sorted(overhead.CLOCKS), default="wall",
                    help="the overhead's clock: wall, or this process's CPU time on a busy "
                         "machine")
    ap.add_argument("--overhead-only", action="store_true",
                    help="print only the harness overhead figures (benchmarks/speed/overhead.py)")
    args = ap.parse_args()
    overhead.use_clock(args.clock)
    r = args.repeats
    if args.overhead_only:
        overhead.run("flit", PROFILE.id, args.games, r, max_steps=args.steps)
        return
    print(f"Flit benchmarks: medians of {r} repeats, Python {sys.version.split()[0]}")

    games = [random_games(args.games, seed) for seed in range(r)]
    gps = statistics.median(g for g, _ in games)
    tps = statistics.median(t for _, t in games)
    print(f"reference, random play to the end : {gps:8.2f} games/s, {tps:10.0f} moves/s "
          f"(a move is one bot's turn with its neutral step)")

    script = action_script(args.steps, seed=1)
    sub = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "flit"])
    sub.start()
    sub.hello()
    sub.new_game()
    try:
        hello = median_of(r, lambda: round_trips(sub, 5000, "hello"))
        observe = median_of(r, lambda: round_trips(sub, 5000, "observe"))
        print(f"wire protocol round trips         : {hello:10.0f} /s (hello), "
              f"{observe:10.0f} /s (observe, a full state each)")

        inproc = InProcessEngine(reference_session("flit"))
        ref_alone = median_of(r, lambda: _ref_only(script))
        bare_in = median_of(r, lambda: bare_steps(inproc, script))
        harn_in = median_of(r, lambda: harness_steps(inproc, script))
        bare_sub = median_of(r, lambda: bare_steps(sub, script))
        harn_sub = median_of(r, lambda: harness_steps(sub, script))
    finally:
        sub.close()
    print(f"reference engine alone            : {ref_alone:10.0f} steps/s "
          f"(apply + observe, over {len(script)} steps)")
    print(f"differential, in-process engine   : {harn_in:10.0f} steps/s; bare steps driven "
          f"{bare_in:10.0f} /s; harness/bare time = {bare_in / harn_in:4.2f}x")
    print(f"differential, subprocess engine   : {harn_sub:10.0f} steps/s; bare steps driven "
          f"{bare_sub:10.0f} /s; harness/bare time = {bare_sub / harn_sub:4.2f}x")
    overhead.run("flit", PROFILE.id, args.games, r, max_steps=args.steps)


def _ref_only(script: list[Any]) -> float:
    ref = Flit()
    s = ref.initial(PROFILE)
    t0 = time.perf_counter()
    for action in script:
        s, _ = ref.apply(s, ref.action_from_json(s, action))
        ref.observe(s)
    return len(script) / (time.perf_counter() - t0)


if __name__ == "__main__":
    main()
