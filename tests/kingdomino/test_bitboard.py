"""The engine's bitboard paths agree with its rule hooks and with a rescan of the grid.

The reference lists placements, tests discards and scores zones from bitboards
(`reference_engine/kingdomino/bitboard.py`) while its rule hooks are its own; a mutant gets
the hook-built paths. These tests play whole random games and compare, at every step, the
two paths, and the facts derived placement by placement with facts computed afresh.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.reference_engine.kingdomino import KdState, Kingdomino
from gamecert.reference_engine.kingdomino import bitboard as bb
from gamecert.reference_engine.kingdomino.engine import EMPTY_GRID, N
from tests.kingdomino.helpers import GAME, grid, profile


class HooksOnly(Kingdomino):
    """The reference with every bitboard path off."""

    def __init__(self) -> None:
        super().__init__()
        self._fast = self._fast_zones = self._fast_discard = False


SLOW = HooksOnly()


def _states(pid: str, seed: int) -> list[KdState]:
    rng = random.Random(seed)
    state = GAME.initial(profile(pid))
    out = [state]
    while GAME.current(state) != TERMINAL:
        who = GAME.current(state)
        action = GAME.random_chance(state, rng) if who == CHANCE else GAME.random_action(state, rng)
        state = GAME.apply(state, action)[0]
        out.append(state)
    return out


@pytest.mark.parametrize("pid", ["legend", "legend-2p", "legend-3p", "legend-fiddleatwork"])
def test_every_step_of_random_games_agrees_with_the_hooks(pid: str) -> None:
    checked = 0
    for seed in range(3):
        for s in _states(pid, 100 + seed):
            if GAME.current(s) > 0 and s.turn > 1:
                tile, p = s.placing[s.nxt]
                g = s.grids[p - 1]
                assert GAME.placements(s, g, tile) == SLOW.placements(s, g, tile)
                assert GAME.can_discard(s, g, tile) == SLOW.can_discard(s, g, tile)
                assert GAME.legal(s) == SLOW.legal(s)
                checked += 1
        for g in s.grids:  # the final kingdoms
            assert GAME.zones(g) == SLOW.zones(g)
            assert GAME.score_grid(g) == SLOW.score_grid(g)
            assert GAME.territory(s.cfg, g) == SLOW.territory(s.cfg, g)
            assert GAME.crowns(g) == SLOW.crowns(g)
        assert s.result is not None
        assert GAME.scores(s) == list(s.result["final"])
    assert checked >= 30


def test_random_play_draws_the_same_games_with_and_without_bitboards() -> None:
    for seed in range(3):
        a, b = random.Random(seed), random.Random(seed)
        s = t = GAME.initial(profile("legend"))
        while GAME.current(s) != TERMINAL:
            if GAME.current(s) == CHANCE:
                x, y = GAME.random_chance(s, a), SLOW.random_chance(t, b)
            else:
                x, y = GAME.random_action(s, a), SLOW.random_action(t, b)
            assert x == y
            s, t = GAME.apply(s, x)[0], SLOW.apply(t, y)[0]
        assert s == t


def test_facts_derived_placement_by_placement_equal_a_rescan() -> None:
    for s in _states("legend", 7)[-1:]:
        for g in s.grids:
            derived, fresh = bb.kingdom(g), bb.Kingdom.of(g)
            assert derived is not fresh
            for slot in bb.Kingdom.__slots__:
                assert getattr(derived, slot) == getattr(fresh, slot), slot


def test_facts_of_a_drawn_grid() -> None:
    g = grid("""
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . c1 c0 . . . .
. . . l0 *0 m3 w2 . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
""")
    k = bb.Kingdom.of(g)
    assert (k.x0, k.x1, k.y0, k.y1) == (3, 6, 3, 4)
    assert k.terrain["*"] == 1 << 40 and k.terrain["c"] == (1 << 30) | (1 << 31)
    assert k.occupied.bit_count() == 6 and k.plain
    assert k.crowns == (1 << 30, 1 << 42, 1 << 41)
    assert bb.zones_of(k) == [("c", 2, 1), ("l", 1, 0), ("m", 1, 3), ("w", 1, 2)]
    odd = g.replace("w2", "x2")  # no terrain letter: the engine scans the characters
    assert not bb.Kingdom.of(odd).plain and bb.zones_of(bb.Kingdom.of(odd)) is None
    assert GAME.zones(odd) == SLOW.zones(odd)


def test_masks_count_index_and_membership_match_the_listing() -> None:
    k = bb.kingdom(EMPTY_GRID)
    masks = bb.placement_masks(k, "c", "f", 5)
    puts = bb.puts_of(masks)
    assert len(puts) == bb.count(masks) == 24  # 4 cells next to the castle, 3 ways each, x 2
    assert [bb.nth_put(masks, i) for i in range(len(puts))] == list(puts)
    assert all(bb.has_put(masks, p) for p in puts)
    assert not bb.has_put(masks, (4, 4, 0)) and not bb.has_put(masks, (3, 4, 9))
    assert not bb.has_put(masks, [3, 4, 2]) and not bb.has_put(masks, (3.0, 4, 2))
    with pytest.raises(IndexError):
        bb.nth_put(masks, len(puts))
    assert puts[0] == (4, 2, 1) and all(0 <= x < N and 0 <= y < N for x, y, _ in puts)


def _scatter(rng: random.Random) -> str:
    """A grid with squares scattered anywhere (no extent, no connection): the bit shifts
    must not wrap from one row's end to the next row's start."""
    cells = ["_0"] * (N * N)
    for i in range(N * N):
        if rng.random() < 0.45:
            cells[i] = rng.choice("cfglwm") + rng.choice("0001123")
    cells[N * N // 2] = "*0"
    return "".join(cells)


@pytest.mark.parametrize("extent", [5, 9])
def test_scattered_grids_agree_with_the_hooks(extent: int) -> None:
    rng = random.Random(extent)
    base = GAME.initial(profile("legend"))
    state = base._replace(cfg=replace(base.cfg, extent=extent))
    for _ in range(40):
        g = _scatter(rng)
        assert GAME.zones(g) == SLOW.zones(g)
        assert GAME.territory(state.cfg, g) == SLOW.territory(state.cfg, g)
        assert GAME.crowns(g) == SLOW.crowns(g)
        for tile in (1, 19, 37, 48):
            assert GAME.placements(state, g, tile) == SLOW.placements(state, g, tile)
