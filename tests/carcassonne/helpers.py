"""Shared helpers for the Carcassonne tests: crafted states and random play."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from gamecert.oracles.carcassonne.board import deck_sets, in_game, tower_start
from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.tiles import load_tiles
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile, load_catalogue

ENGINE = Carcassonne()
CATALOGUE = load_catalogue("carcassonne")
TILES = load_tiles()
CLOSED_RIVER = [(0, 0, "RS", 0), (0, -1, "RE", 0)]  # spring with the lake right above it


def profile(pid: str | None = None) -> Profile:
    return CATALOGUE.profile(pid)


def crafted(board: list[tuple[int, int, str, int]], *, pid: str | None = None,
            meeples: list[tuple[int, int, str, int]] | None = None,
            hands: list[list[str]] | None = None, scores: list[int] | None = None,
            step: str = "place", to_move: int = 1, placed: tuple[int, int] | None = None,
            pending: list[int] | None = None, phase: str = "land",
            river_pile: dict[str, int] | None = None, deck_left: int | None = None,
            claim_blocked: list[str] | None = None) -> dict[str, Any]:
    """A canonical state JSON: tiles not on the board or in hands go to the deck (land) or are
    discarded (river); `deck_left` caps the deck, discarding the rest of the land tiles."""
    prof = profile(pid)
    n = prof.param("CARC-PLAYERS", "players")
    hands = hands if hands is not None else [[] for _ in range(n)]
    used = Counter(t for _, _, t, _ in board) + Counter(t for h in hands for t in h)
    river_pile = river_pile or {}
    used.update(river_pile)
    deck: dict[str, int] = {}
    discarded: list[str] = []
    room = 10**6 if deck_left is None else deck_left
    land = deck_sets(prof)
    for tile in TILES:
        left = in_game(prof, tile.id) - used[tile.id]
        if tile.set in land:
            take = min(left, room)
            room -= take
            if take:
                deck[tile.id] = take
            discarded += [tile.id] * (left - take)
        else:
            discarded += [tile.id] * left
    supply = [prof.param("CARC-MEEPLE-SUPPLY", "meeples")] * n
    meeples = meeples or []
    for *_, p in meeples:
        supply[p - 1] -= 1
    return {
        "game": "carcassonne", "profile": prof.id, "players": n, "phase": phase, "step": step,
        "to_move": to_move, "pending": pending or [], "after_draws": "place",
        "board": sorted(({"at": [x, y], "tile": t, "rotation": r} for x, y, t, r in board),
                        key=lambda b: b["at"]),
        "placed": list(placed) if placed else None, "claim_blocked": claim_blocked or [],
        "meeples": sorted(({"at": [x, y], "on": on, "player": p} for x, y, on, p in meeples),
                          key=lambda m: (m["at"], m["on"])),
        "supply": supply, "scores": scores or [0] * n,
        "hands": [sorted(h) for h in hands], "deck": deck, "river_pile": river_pile,
        "discarded": sorted(discarded), "result": None, **tower_start(prof),
    }


def load(state: dict[str, Any], pid: str | None = None) -> CarcState:
    return ENGINE.load(profile(pid or state["profile"]), state)


def play(prof: Profile, seed: int) -> Iterator[tuple[CarcState, Any, CarcState, list[Any]]]:
    """Every transition (before, action, after, events) of one random game."""
    rng = random.Random(seed)
    state = ENGINE.initial(prof)
    while (who := ENGINE.current(state)) != TERMINAL:
        if who == CHANCE:
            action = ENGINE.random_chance(state, rng)
        else:
            action = ENGINE.random_action(state, rng)
        after, events = ENGINE.apply(state, action)
        yield state, action, after, events
        state = after
