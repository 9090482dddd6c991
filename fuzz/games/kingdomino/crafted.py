"""Kingdomino's crafted positions: z3's near-full kingdoms, exactly one spot left for the
tile (KD-PLACE-EXTENT, KD-DISCARD): z3 finds the grids (oracles.kingdomino.z3_checks), the
reference plays to a king's turn to put them in. Builds states only.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from gamecert.fuzz.games.built_once import built_once
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino.z3_checks import near_full
from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.spec import Profile

JSON = Any
# What the crafted starts are for (each kind, the rules whose rare cases it puts one step
# away; an engine that cannot load them gets those rules checked in part): z3's near-full
# grids.
CRAFTED_FOR: dict[str, tuple[str, ...]] = {
    "z3's near-full kingdoms, one spot left for the tile": ("KD-PLACE-EXTENT", "KD-DISCARD"),
}


@cache
def near_full_states(profile: Profile, count: int = 4) -> list[JSON]:
    """Start states (a king to play on turn 2) whose tile has exactly one spot left (kept
    on disk: built_once)."""
    out: list[JSON] = built_once("kingdomino", "near-full", profile,
                                 lambda: _near_full_states(profile, count), count)
    return out


def _near_full_states(profile: Profile, count: int) -> list[JSON]:
    game = Kingdomino()
    rng = random.Random(f"near-full:{profile.id}")
    state = game.initial(profile)
    while game.current(state) <= 0 or state.turn < 2:
        who = game.current(state)
        action = game.random_chance(state, rng) if who == 0 else game.random_action(state, rng)
        state, _ = game.apply(state, action)
    tile, p = state.placing[state.nxt]
    squares = b.tiles(profile)[tile]
    size = profile.param("KD-PLACE-EXTENT", "size")
    out = []
    for seed in range(60):
        g = near_full(seed, squares, size)
        if g is None:
            continue
        grids = (*state.grids[:p - 1], g, *state.grids[p:])
        out.append(game.observe(state._replace(grids=grids)))
        if len(out) >= count:
            break
    return out


def near_full_starts(profile: Profile) -> list[JSON]:
    """z3's near-full kingdoms (exactly one spot left for the tile), as start states."""
    return near_full_states(profile)
