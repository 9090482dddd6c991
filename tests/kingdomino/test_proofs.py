"""`gamecert prove kingdomino`: the z3 checks pass on the reference and catch the mutants of
the rules they cover; z3's placement search agrees with the oracle's grid model."""

from __future__ import annotations

import pytest

from examples.engines.kingdomino.placement import discard_when_fits, extent_6x6
from examples.engines.kingdomino.scoring import (
    castle_terrain,
    crowns_per_tile,
    diagonal_zones,
    tiebreak_crowns_first,
)
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.games.kingdomino.crafted import near_full_states
from gamecert.fuzz.games.kingdomino.proofs import prove_kingdomino
from gamecert.oracles.kingdomino import board
from gamecert.oracles.kingdomino.z3_checks import (
    prove_tie_order,
    z3_placement,
    z3_placements,
    z3_score,
)
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import Session
from tests.kingdomino.helpers import GAME, at_turn, grid, play_random, profile
from tests.kingdomino.test_engine import SCORING


def test_reference_proves_clean() -> None:
    ok, lines = prove_kingdomino(InProcessEngine(reference_session("kingdomino")), profile())
    assert ok, lines
    assert any("PROVED" in line for line in lines)


@pytest.mark.parametrize("mutant", [extent_6x6, discard_when_fits, tiebreak_crowns_first,
                                    crowns_per_tile, diagonal_zones, castle_terrain])
def test_prove_catches_mutants(mutant: object) -> None:
    engine = InProcessEngine(Session(mutant.ENGINE(), name="m"))  # type: ignore[attr-defined]
    ok, lines = prove_kingdomino(engine, profile())
    assert not ok
    assert any((" 0 wrong" not in line and "disagree" in line) or "wrong" in line
               for line in lines), lines


def test_tie_order_proved() -> None:
    assert prove_tie_order()[0]


def test_z3_search_agrees_with_the_engine_on_random_positions() -> None:
    for seed in range(6):
        s = at_turn("legend", seed, 3 + seed)
        tile, p = s.placing[s.nxt]
        g, squares = s.grids[p - 1], s.cfg.tiles[tile]
        found = z3_placement(g, squares, 5)
        assert (found is None) == (not GAME.placements(s, g, tile))
        if found is not None:
            assert tuple(found) in GAME.placements(s, g, tile)


@pytest.mark.parametrize("pid", ["legend", "legend-2p", "wood"])
def test_near_full_states_have_exactly_one_spot(pid: str) -> None:
    states = near_full_states(profile(pid))
    assert states
    for s in states:
        k = s["placing"][s["next"]]
        g = board.grid(s, k["player"])
        squares = board.tiles(profile(pid))[k["tile"]]
        assert len(z3_placements(g, squares, 5, limit=3)) == 1
        state = GAME.load(profile(pid), s)
        puts = {a[1] for a in GAME.legal(state)}
        assert None not in puts  # the tile fits: no discard
        spots = {frozenset([(p[0], p[1]), board.second(*p)]) for p in puts if p is not None}
        assert len(spots) == 1


def test_z3_zone_model_scores_the_example_and_random_kingdoms() -> None:
    assert z3_score(grid(SCORING)) == (24, True)
    for seed in range(3):
        state, _ = play_random("legend", seed)
        for g in state.grids:
            value, unique = z3_score(g)
            assert unique and value == GAME.score_grid(g) == board.score(g)
