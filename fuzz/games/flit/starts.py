"""Flit's start positions: a new game, a new game with its set-up part played (its moves), a
crafted board (crafted.py), a position from random play, and z3's boundary positions of the
catch-up rule. Builds states and moves only.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

from gamecert.fuzz.games.built_once import built_once
from gamecert.fuzz.games.flit.crafted import crafted_state
from gamecert.oracles.flit.proofs import boundary_positions
from gamecert.reference_engine.contract import CHANCE
from gamecert.reference_engine.flit import Flit
from gamecert.spec import Profile

JSON = Any
GAME = Flit()  # the reference the starts are played on


def start_strategy(profile: Profile) -> st.SearchStrategy[JSON]:
    boundaries = built_once("flit", "boundaries", profile, lambda: [
        s for _, s in boundary_positions(profile)]) if profile.param(
        "FLIT-BOARD-SIZE", "width") * profile.param("FLIT-BOARD-SIZE", "height") > 64 else []
    options: list[st.SearchStrategy[JSON]] = [
        st.just({"kind": "new_game"}),
        # the set-up is eight chance steps a game: an example that starts by playing part
        # of it probes where its rules (FLIT-SETUP-AVAILABLE) can be broken as often as
        # anywhere else. Played, not loaded: the engine takes each piece as a step, so an
        # engine that deals the pieces in another order departs there, under its own rule
        st.builds(setup_moves, st.just(profile), st.integers(0, 2**16),
                  st.integers(1, 7)).map(lambda m: {"kind": "new_game", "moves": m}),
        crafted_state(profile).map(lambda s: {"kind": "state", "state": s}),
        st.builds(played_state, st.just(profile), st.integers(0, 2**16),
                  st.integers(0, 120)).map(lambda s: {"kind": "state", "state": s}),
    ]
    if boundaries:
        options.append(st.sampled_from(boundaries).map(lambda s: {"kind": "state",
                                                                    "state": s}))
    return st.one_of(options)


def setup_moves(profile: Profile, seed: int, pieces: int) -> list[JSON]:
    """The first `pieces` set-up steps of a new game, each on a random available square."""
    game, rng = Flit(), random.Random(seed)
    state, moves = game.initial(profile), []
    for _ in range(pieces):
        if game.current(state) != CHANCE or not game.available_squares(state):
            break
        action = game.random_chance(state, rng)
        moves.append(game.action_to_json(state, action))
        state, _ = game.apply(state, action)
    return moves


def played_state(profile: Profile, seed: int, turns: int) -> JSON:
    """Where random play from a fresh game stands after `turns` turns (or just before the end)."""
    game, rng = Flit(), random.Random(seed)
    state = game.initial(profile)
    while state.turn < turns:
        who = game.current(state)
        if who == CHANCE:
            action = game.random_chance(state, rng)
        elif who < 0:
            break
        else:
            r = rng.random()
            action = ("pass",) if r < 0.1 else ("timeout",) if r < 0.15 else \
                game.random_action(state, rng)
        nxt, _ = game.apply(state, action)
        if game.current(nxt) < 0:
            break
        state = nxt
    return game.observe(state)
