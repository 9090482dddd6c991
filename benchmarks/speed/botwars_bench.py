"""Bot Wars speed figures: the reference alone, and the differential lockstep around it.

    python benchmarks/speed/botwars_bench.py [--games 40] [--repeats 5] [--lockstep-games 3]

Prints the median over repeats of:
* full random reference games per second, and random actions per second (random lists and
  chance outcomes drawn and applied, as random play and the fuzzer's generators do);
* lockstep steps per second (reference beside an engine under test, every oracle run on
  every step, canonical JSON compared) with the engine in-process and as a wire-protocol
  subprocess, each beside the reference's own step rate on the same actions measured in
  the same run, and the ratio between them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
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
from gamecert.reference_engine.botwars import BotWars
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile, load_catalogue

GAME = BotWars()


def random_games(profile: Profile, games: int, seed: int, toward: float) -> tuple[int, float]:
    """Play `games` full random games; (actions, seconds)."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = GAME.initial(profile)
        while (who := GAME.current(state)) != TERMINAL:
            action = (GAME.random_chance(state, rng) if who == CHANCE
                      else GAME.random_action(state, rng, toward=toward))
            state, _ = GAME.apply(state, action)
            actions += 1
    return actions, time.perf_counter() - start


def recorded_games(profile: Profile, games: int, seed: int, toward: float) -> list[list[Any]]:
    """Random games as the wire protocol's action documents, to replay identically."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state, actions = GAME.initial(profile), []
        while (who := GAME.current(state)) != TERMINAL:
            action = (GAME.random_chance(state, rng) if who == CHANCE
                      else GAME.random_action(state, rng, toward=toward))
            actions.append(GAME.action_to_json(state, action))
            state, _ = GAME.apply(state, action)
        out.append(actions)
    return out


def reference_steps(profile: Profile, games: list[list[Any]]) -> float:
    """The reference's own rate on these actions: decode, apply, observe (what a lockstep
    step asks of the reference)."""
    steps = 0
    start = time.perf_counter()
    for actions in games:
        state = GAME.initial(profile)
        for a in actions:
            state, _ = GAME.apply(state, GAME.action_from_json(state, a))
            GAME.observe(state)
            steps += 1
    return steps / (time.perf_counter() - start)


def lockstep_steps(profile: Profile, games: list[list[Any]], engine: Engine,
                   oracles: bool = True) -> float:
    steps = 0
    start = time.perf_counter()
    for actions in games:
        ls = Lockstep(GAME, engine, profile, oracles_for("botwars") if oracles else [],
                      coverage=Coverage(), defer=AGREED_BATCH)  # as a campaign's
        ls.start({"kind": "new_game"})
        for a in actions:
            ls.step(a)
            steps += 1
        ls.finish()
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="standard")
    parser.add_argument("--games", type=int, default=40, help="random games per repeat")
    parser.add_argument("--lockstep-games", type=int, default=3,
                        help="games replayed through the lockstep per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--toward", type=float, default=0.3,
                        help="how keen botlets are to head for the enemy spawn")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=sorted(overhead.CLOCKS), default="wall",
                    help="the overhead's clock: wall, or this process's CPU time on a busy "
                         "machine")
    parser.add_argument("--overhead-only", action="store_true",
                        help="print only the harness overhead figures (speed/overhead.py)")
    args = parser.parse_args()
    overhead.use_clock(args.clock)
    profile = load_catalogue("botwars").profile(args.profile)

    def choose(state: Any, rng: random.Random) -> Any:
        return GAME.random_action(state, rng, toward=args.toward)

    if args.overhead_only:
        overhead.run("botwars", profile.id, args.lockstep_games, args.repeats, choose=choose)
        return

    runs = [random_games(profile, args.games, args.seed + i, args.toward)
            for i in range(args.repeats)]
    games_s = statistics.median(args.games / took for _, took in runs)
    actions_s = statistics.median(n / took for n, took in runs)
    per_game = statistics.mean(n for n, _ in runs) / args.games
    print(f"Bot Wars ({profile.id}), median of {args.repeats} repeats, Python "
          f"{sys.version.split()[0]}")
    print(f"  random reference games:     {games_s:8.1f} games/s "
          f"({args.games} games a repeat, {per_game:.0f} actions a game)")
    print(f"  random reference actions:   {actions_s:8.0f} actions/s")

    games = recorded_games(profile, args.lockstep_games, args.seed, args.toward)
    steps = sum(len(g) for g in games)
    print(f"  lockstep ({args.lockstep_games} recorded games, {steps} steps a repeat; "
          f"24 oracles a step):")
    in_process = InProcessEngine(reference_session("botwars"))
    sub = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "botwars"])
    sub.start()
    sub.hello()  # start-up is not a step
    try:
        for label, engine, oracles in (("in-process", in_process, True),
                                       ("in-process, oracles off", in_process, False),
                                       ("subprocess", sub, True)):
            # each repeat times the reference alone, then the lockstep, back to back: the
            # ratio is taken per pair, so a busy machine skews both sides alike
            pairs = [(reference_steps(profile, games),
                      lockstep_steps(profile, games, engine, oracles))
                     for _ in range(args.repeats)]
            ref_rate = statistics.median(r for r, _ in pairs)
            rate = statistics.median(x for _, x in pairs)
            ratio = statistics.median(x / r for r, x in pairs)
            print(f"    {label:<24} {rate:8.0f} steps/s   reference alone {ref_rate:8.0f} "
                  f"steps/s   ratio {ratio:6.3f}")
    finally:
        sub.close()
    overhead.run("botwars", profile.id, args.lockstep_games, args.repeats, choose=choose)


if __name__ == "__main__":
    main()
