"""Kingdomino's start positions: a new game, positions from random play at every depth (the
last turns twice as often) and z3's near-full kingdoms (crafted.py). Builds states only.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from hypothesis import strategies as st

from gamecert.fuzz.games.kingdomino.crafted import near_full_starts
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.spec import Profile

JSON = Any


def start_strategy(profile: Profile) -> st.SearchStrategy[JSON]:
    end = total_steps(profile)
    deep = st.builds(played_state, st.just(profile), st.integers(0, 2**16),
                     st.one_of(st.integers(end - 25, end), st.integers(0, end)))
    # a new game one start in two: the machine's seeded runs (fuzz.search.play.runs) play one
    # to its end and final scoring for one choice, and a whole game is the most steps an
    # example can judge; states played part of the way, or near full, the others
    options: list[st.SearchStrategy[JSON]] = [
        st.just({"kind": "new_game"}),
        st.just({"kind": "new_game"}),
        deep.map(lambda s: {"kind": "state", "state": s}),
    ]
    near_full = near_full_starts(profile)
    if near_full:
        options.append(st.sampled_from(near_full).map(
            lambda s: {"kind": "state", "state": s}))
    return st.one_of(options)
GAME = Kingdomino()


@cache
def played_state(profile: Profile, seed: int, steps: int) -> JSON:
    """Where random play from a fresh game stands after `steps` steps (or just before the
    end). Cached: shrinking and later rounds revisit the same seeds."""
    rng = random.Random(seed)
    state = GAME.initial(profile)
    for _ in range(steps):
        who = GAME.current(state)
        action = GAME.random_chance(state, rng) if who == CHANCE else \
            GAME.random_action(state, rng)
        nxt, _ = GAME.apply(state, action)
        if GAME.current(nxt) == TERMINAL:
            break
        state = nxt
    return GAME.observe(state)


def total_steps(profile: Profile) -> int:
    n = profile.param("KD-PLAYERS", "players")
    return 120 if n > 2 else 60
