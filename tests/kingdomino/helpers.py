"""Shared helpers for the Kingdomino tests: grids drawn as pictures, states built from them."""

from __future__ import annotations

import random
from typing import Any

from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.kingdomino import KdState, Kingdomino
from gamecert.spec import Profile, load_catalogue

GAME = Kingdomino()


def profile(pid: str = "legend") -> Profile:
    return load_catalogue("kingdomino").profile(pid)


def grid(picture: str) -> str:
    """A grid from 9 lines of 9 cells ('.' for an empty cell, else two characters; cells
    separated by spaces): the castle must be at (4, 4)."""
    rows = [r.split() for r in picture.strip().splitlines()]
    assert len(rows) == 9 and all(len(r) == 9 for r in rows), picture
    return "".join("_0" if c == "." else c for r in rows for c in r)


def play_random(pid: str, seed: int, stop_at: int | None = None) -> tuple[KdState, list[Any]]:
    """A random game under profile `pid`; the final (or `stop_at`-th) state and all events."""
    rng = random.Random(seed)
    state = GAME.initial(profile(pid))
    events: list[Any] = []
    steps = 0
    while GAME.current(state) != TERMINAL and (stop_at is None or steps < stop_at):
        who = GAME.current(state)
        action = GAME.random_chance(state, rng) if who == CHANCE else GAME.random_action(state, rng)
        state, ev = GAME.apply(state, action)
        events.extend(ev)
        steps += 1
    return state, events


def at_turn(pid: str, seed: int, turn: int) -> KdState:
    """The first state of a random game where `turn` is under way and a king is to play."""
    rng = random.Random(seed)
    state = GAME.initial(profile(pid))
    while not (state.turn == turn and GAME.current(state) > 0):
        who = GAME.current(state)
        assert who != TERMINAL
        action = GAME.random_chance(state, rng) if who == CHANCE else GAME.random_action(state, rng)
        state, _ = GAME.apply(state, action)
    return state
