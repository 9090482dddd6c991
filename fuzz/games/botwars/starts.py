"""Bot Wars' start positions: a new game, crafted and z3 boards (crafted.py, three times as
often: the rare cases are their job), positions from random play toward the other side,
the rules' battle pictures. Builds states only.
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from typing import Any

from hypothesis import strategies as st

from gamecert.fuzz.games.botwars.crafted import crafted_state, crowded_state, picture_state
from gamecert.reference_engine.botwars import BotWars
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile

GAME = BotWars()  # the reference's helpers (botlets, free pairs, random lists); it is pure
JSON = Any


@lru_cache(maxsize=256)
def played_state(profile: Profile, seed: int, turns: int, toward: float) -> JSON:
    """Where random play by the reference stands after `turns` turns (or just before its
    end), p1 to move; `toward` is how keen the botlets are to head for the enemy spawn.
    (Never in phase energy: see PHASES.)"""
    rng = random.Random(seed)
    state = GAME.initial(profile)
    while state.turns < turns or GAME.current(state) == CHANCE:
        who = GAME.current(state)
        action = (GAME.random_chance(state, rng) if who == CHANCE
                  else GAME.random_action(state, rng, odd=1 / 16, toward=toward))
        nxt, _ = GAME.apply(state, action)
        if GAME.current(nxt) == TERMINAL:
            break
        state = nxt
    return GAME.observe(state)


def _new_game(_: Any) -> JSON:
    return {"kind": "new_game"}


def _as_start(state: JSON) -> JSON:
    return {"kind": "state", "state": state}


@cache
def start_strategy(profile: Profile) -> st.SearchStrategy[JSON]:
    return st.one_of(
        st.just(None).map(_new_game),
        crafted_state(profile).map(_as_start),
        crafted_state(profile).map(_as_start),  # three times: the rare cases are its job
        crafted_state(profile).map(_as_start),
        crowded_state(profile).map(_as_start),
        st.builds(played_state, st.just(profile), st.integers(0, 255),
                  st.sampled_from([3, 20, 60, 120, 190, 199]),
                  st.sampled_from([0.0, 0.3, 0.7])).map(_as_start),
        picture_state(profile).map(_as_start),
    )
