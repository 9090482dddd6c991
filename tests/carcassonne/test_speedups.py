"""Carcassonne's oracle speed-ups (issue 15) give the answers the plain computations give.

Each shortcut in `oracles/carcassonne` is checked against the computation it stands in for,
on states of random games of every profile, and on boards no valid game reaches (tiles laid
with edges that differ), since an engine under test may reply with any board.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamecert.oracles.carcassonne import board as cb
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue

PROFILES = list(load_catalogue("carcassonne").profiles)


def _states(profile_id: str, seed: int, games: int = 1) -> list[Any]:
    """Canonical states of random games, in order."""
    game = reference_game("carcassonne")
    profile = load_catalogue("carcassonne").profile(profile_id)
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = game.initial(profile)
        out.append(game.observe(s))
        while (who := game.current(s)) != TERMINAL:
            a = (game.random_chance(s, rng) if who == CHANCE  # type: ignore[attr-defined]
                 else game.random_action(s, rng))  # type: ignore[attr-defined]
            s, _ = game.apply(s, a)
            out.append(game.observe(s))
    return out


def _shape_facts(shapes: tuple[list[cb.Feature], dict[tuple[cb.Cell, int], cb.Feature]]
                 ) -> tuple[list[tuple[Any, ...]], dict[tuple[cb.Cell, int], int]]:
    """Every shape in order, and which of them each (cell, part) belongs to."""
    found, index = shapes
    facts = [(f.kind, sorted(f.parts), sorted(f.tiles), f.open_sides, f.banners, f.present,
              f.first) for f in found]
    where = {id(f): i for i, f in enumerate(found)}
    assert all(id(f) in where for f in index.values())
    return facts, {at: where[id(f)] for at, f in index.items()}


def _fresh(state: Any) -> tuple[list[tuple[Any, ...]], dict[tuple[cb.Cell, int], int]]:
    saved = dict(cb._shapes)
    cb._shapes.clear()
    try:
        return _shape_facts(cb.Board(state)._flood_shapes())
    finally:
        cb._shapes.clear()
        cb._shapes.update(saved)


def _grown_in_order(states: list[Any]) -> int:
    """Each state's shapes as the oracles get them (grown from the last layout when it is
    one tile smaller) equal a fresh flood's; returns how many were grown."""
    cb._shapes.clear()
    grown = 0
    for state in states:
        bd = cb.Board(state)
        key = frozenset(bd.cells.items())
        if key not in cb._shapes and any(len(k) == len(key) - 1 and k < key
                                         for k in cb._shapes):
            grown += 1
        assert _shape_facts(bd._shapes()) == _fresh(state)
    return grown


@pytest.mark.parametrize("profile_id", PROFILES)
def test_shapes_grown_tile_by_tile_equal_a_fresh_flood(profile_id: str) -> None:
    states = _states(profile_id, seed=13)
    assert _grown_in_order(states) > 20


def _wild_boards(seed: int, tiles: int) -> list[Any]:
    """Boards grown one random tile at a time on any empty cell next to the board, whatever
    its edges face: what an engine with a broken placement rule could reply."""
    rng = random.Random(seed)
    ids = sorted(t for t, info in cb.catalogue().items() if info.set != "river")
    board = [{"at": [0, 0], "tile": "RS", "rotation": 0}]
    cells = {(0, 0)}
    out = []
    for _ in range(tiles):
        free = sorted({(x + dx, y + dy) for x, y in cells for dx, dy in cb.STEP} - cells)
        at = rng.choice(free)
        cells.add(at)
        board = [*board, {"at": list(at), "tile": rng.choice(ids),
                          "rotation": rng.randrange(4)}]
        out.append({"board": board, "players": 2, "meeples": []})
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_shapes_grown_on_boards_with_edges_that_differ(seed: int) -> None:
    boards = _wild_boards(seed, 60)
    assert _grown_in_order(boards) == len(boards) - 1


def test_completes_any_on_grown_shapes_equals_looking_at_every_feature() -> None:
    cb._shapes.clear()
    for state in _states(PROFILES[0], seed=17)[::2]:
        bd = cb.Board(state)
        for cell in list(bd.cells)[-4:]:
            slow = any(f.complete for f in bd.features_on(cell) + bd.monasteries_near(cell))
            assert bd.completes_any(cell) == slow
