"""The seeds' own examples (seed 001, "A Player's Turn" and "Ending the Game")."""

from __future__ import annotations

import pytest

from gamecert.reference_engine.carcassonne.engine import LAND_PHASE, PLACE, CarcState, lay, pack

from .helpers import ENGINE, crafted, load, profile

T = ENGINE.initial(profile()).cfg.t
J = T.index["J"]


def lone(neighbour: str, rot: int = 0) -> CarcState:
    """A board holding only `neighbour` at [10, 10] (laid directly: only matching is tested),
    with tile J in player 1's hand."""
    s = ENGINE.initial(profile())
    board, cells, owner, feats = {}, {}, {}, {}  # type: ignore[var-annotated]
    lay(T, board, cells, owner, feats, pack(10, 10), T.index[neighbour], rot, 4)
    return s._replace(board=board, cells=cells, owner=owner, feats=feats, phase=LAND_PHASE,
                      step=PLACE, pending=(), hands=((J,), (), (), ()))


LEFT, ABOVE, BELOW, RIGHT = pack(9, 10), pack(10, 9), pack(10, 11), pack(11, 10)


@pytest.mark.parametrize(("neighbour", "cell", "where"), [
    ("K", LEFT, "to the left of K"), ("K", ABOVE, "above K"),
    ("C", BELOW, "under C"), ("G", BELOW, "under G"),
    ("B", RIGHT, "to the right of B"), ("E", RIGHT, "to the right of E"),
    ("U", ABOVE, "above U"),
])
def test_tile_j_placements_from_the_seed(neighbour: str, cell: int, where: str) -> None:
    s = lone(neighbour)
    assert ENGINE.placement_problem(s, J, cell, 0) is None, where
    assert ("place", J, cell, 0) in ENGINE.legal(s), where


def test_tile_j_turned_right_goes_left_of_h() -> None:
    s = lone("H")
    assert ENGINE.placement_problem(s, J, LEFT, 1) is None
    problem = ENGINE.placement_problem(s, J, LEFT, 0)  # unturned, its road faces H's town
    assert problem is not None and "road" in problem and "city" in problem


@pytest.mark.parametrize(("neighbour", "cell"), [("K", RIGHT), ("U", BELOW), ("B", BELOW),
                                                 ("C", ABOVE), ("E", LEFT)])
def test_tile_j_unturned_does_not_fit_elsewhere(neighbour: str, cell: int) -> None:
    assert ENGINE.placement_problem(lone(neighbour), J, cell, 0) is not None


# An incomplete town worth 8 at the end: E, G, F, F, N, N (6 tiles) with 2 banners (the Fs);
# it is open on the left side of the N at [2, -3]. The deck and hands are empty, so the pass
# below ends the game and the town is scored as incomplete (CARC-SCORE-INCOMPLETE).
TOWN = [(0, 0, "RS", 0), (0, -1, "RE", 0), (-2, -2, "E", 1), (-1, -2, "G", 1),
        (0, -2, "F", 0), (1, -2, "F", 0), (2, -2, "N", 0), (2, -3, "N", 3)]
GREEN, BLACK = 1, 2


def _end_with(meeples: list[tuple[int, int, str, int]]) -> tuple[list[int], list[dict]]:  # type: ignore[type-arg]
    state = load(crafted(TOWN, meeples=meeples, step="claim", to_move=BLACK, placed=(2, -3),
                         deck_left=0))
    after, events = ENGINE.apply(state, ("pass",))
    assert after.result is not None and after.result["reason"] == "tiles-exhausted"
    return list(after.scores), [e for e in events if e["type"] == "feature-final"]


def test_incomplete_town_scores_for_the_majority_only() -> None:
    scores, finals = _end_with([(-2, -2, "right", GREEN), (0, -2, "right", GREEN),
                                (2, -3, "bottom", BLACK)])
    assert len(finals) == 1
    town = finals[0]
    assert (town["feature"], len(town["tiles"]), town["banners"]) == ("city", 6, 2)
    assert town["points"] == 8 and town["meeples"][:2] == [2, 1] and town["scorers"] == [GREEN]
    assert scores == [8, 0, 0, 0]


def test_with_one_more_black_meeple_green_and_black_both_get_8() -> None:
    """Seed 001: 'if Black had an additional meeple on the town, both Green and Black would
    have received 8 points'."""
    scores, finals = _end_with([(-2, -2, "right", GREEN), (0, -2, "right", GREEN),
                                (2, -3, "bottom", BLACK), (-1, -2, "right", BLACK)])
    assert finals[0]["scorers"] == [GREEN, BLACK]
    assert scores == [8, 8, 0, 0]
