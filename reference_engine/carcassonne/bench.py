"""Speed of the reference engine: `python -m reference_engine.carcassonne.bench [games]`.

Plays full random games (river included) with `random_chance` / `random_action`, then times
the legal-placement enumeration on the place steps those games went through.
"""

from __future__ import annotations

import random
import sys
import time

from gamecert.reference_engine.carcassonne.engine import PLACE, Carcassonne, CarcState
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue


def random_game(game: Carcassonne, state: CarcState, rng: random.Random) -> CarcState:
    while (who := game.current(state)) != TERMINAL:
        action = game.random_chance(state, rng) if who == CHANCE else game.random_action(state,
                                                                                          rng)
        state = game.apply(state, action)[0]
    return state


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 200
    game = Carcassonne()
    prof = load_catalogue("carcassonne").profile()
    start = game.initial(prof)
    rng = random.Random(2025)
    t0 = time.perf_counter()
    for _ in range(games):
        random_game(game, start, rng)
    played = time.perf_counter() - t0
    # the place steps of a few games, to time legal-placement enumeration alone
    places: list[CarcState] = []
    rng = random.Random(7)
    for _ in range(5):
        state = start
        while (who := game.current(state)) != TERMINAL:
            if state.step == PLACE:
                places.append(state)
            action = (game.random_chance(state, rng) if who == CHANCE
                      else game.random_action(state, rng))
            state = game.apply(state, action)[0]
    rounds = 20
    t0 = time.perf_counter()
    found = 0
    for _ in range(rounds):
        for state in places:
            found += len(game.placements(state))
    listed = time.perf_counter() - t0
    enumerations = rounds * len(places)
    print(f"{games} random 4-player games (river included): {played:.2f} s, "
          f"{games / played:.0f} games/s, {1000 * played / games:.2f} ms/game")
    print(f"{enumerations} legal-placement enumerations (hand of up to 3 tiles, all open cells "
          f"x 4 rotations, {found / enumerations:.1f} placements on average): "
          f"{enumerations / listed:.0f} enumerations/s, {1e6 * listed / enumerations:.1f} us each")


if __name__ == "__main__":
    main(sys.argv[1:])
