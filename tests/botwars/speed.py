"""Random full games per second on the Bot Wars reference engine.

    python -m tests.botwars.speed [--profile standard] [--games 200] [--toward 0.0]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from gamecert.reference_engine.botwars import BotWars
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="standard")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--toward", type=float, default=0.0,
                        help="how keen botlets are to head for the enemy spawn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game, profile = BotWars(), load_catalogue("botwars").profile(args.profile)
    rng = random.Random(args.seed)
    ends: Counter[str] = Counter()
    actions = 0
    start = time.perf_counter()
    for _ in range(args.games):
        state = game.initial(profile)
        while (who := game.current(state)) != TERMINAL:
            action = (game.random_chance(state, rng) if who == CHANCE
                      else game.random_action(state, rng, toward=args.toward))
            state, _ = game.apply(state, action)
            actions += 1
        ends[str(state.end_reason)] += 1
    took = time.perf_counter() - start
    print(f"{args.games} games ({actions} actions) in {took:.2f} s: "
          f"{args.games / took:.1f} games/s, {actions / took:.0f} actions/s; "
          f"ends {dict(ends)}")


if __name__ == "__main__":
    main()
