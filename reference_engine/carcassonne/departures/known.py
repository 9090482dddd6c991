"""Departure models for what real Carcassonne engines are known to do (the issues and the
case studies): the lake laid by the engine inside a player's turn, a completed town paid
without its banner bonus, a tie that scores nobody, a river curve whose turn is judged the
wrong way round.

Each class changes one rule decision of the reference engine; none is copied from another
engine (the behaviours are described in the issues, the code is ours). This module must
not import the harness.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig, CarcState, rules
from gamecert.reference_engine.carcassonne.engine import (
    CITY,
    LEFT,
    RIGHT,
    RIVER_PHASE,
    Feat,
    river_step,
    uturn_problem,
)
from gamecert.reference_engine.carcassonne.state import _add


def _lake_only(state: CarcState) -> bool:
    """The river pile holds the lake and nothing else, and the river is still open."""
    pile, lake = state.river_pile, state.cfg.t.lake
    return (state.phase == RIVER_PHASE and pile[lake] > 0 and sum(pile) == pile[lake]
            and state.river.open_pos >= 0 and state.river.open_pos not in state.board)


def lay_lake(game: Carcassonne, state: CarcState) -> CarcState:
    """`state` with the lake taken from the river pile and laid at the river's open end, in
    the first rotation whose edges fit (unchanged when none fits)."""
    t, pos = state.cfg.t, state.river.open_pos
    m, v = state.cells[pos]
    fits = [r for r in range(4) if t.rot[t.lake][r].code & m == v]
    if not fits:
        return state
    board, cells = dict(state.board), dict(state.cells)
    owner, feats = dict(state.owner), dict(state.feats)
    game.lay_tile(state.cfg, board, cells, owner, feats, pos, t.lake, fits[0])
    river = river_step(t, state.river, t.lake, fits[0], pos)[0]
    return state._replace(board=board, cells=cells, owner=owner, feats=feats, river=river,
                          river_pile=_add(state.river_pile, t.lake, -1))


class LakeLaidAtPlacement(Carcassonne):
    """The engine lays the lake itself, right after the last other river tile is placed, in
    that player's turn (no turn draws and places the lake)."""

    def _place(self, state: CarcState, k: Any, pos: Any, rot: Any) -> tuple[CarcState, list[Any]]:
        after, events = super()._place(state, k, pos, rot)
        if _lake_only(after):
            after = lay_lake(self, after)
        return after, events


class LakeLaidAtTurnEnd(Carcassonne):
    """The engine lays the lake itself at the end of the turn that placed the last other
    river tile, and the land phase begins (no turn draws and places the lake)."""

    def _next_turn(self, state: CarcState, events: list[Any]) -> CarcState:
        if _lake_only(state):
            state = lay_lake(self, state)
        return super()._next_turn(state, events)


class NoBannerBonus(Carcassonne):
    """A completed town pays its tiles only: its banners add nothing."""

    def completed_points(self, cfg: CarcConfig, f: Feat) -> int:
        if f.kind == CITY:
            return len(f.tiles) * cfg.town_pts
        return super().completed_points(cfg, f)


def _nobody_on_tie(counts: Any, points: Any, max2: rules.Max2 = max,
                   ite: rules.Ite = rules.py_ite) -> list[Any]:
    awards = rules.award(counts, points, max2, ite)
    return [0] * len(awards) if sum(1 for a in awards if a) > 1 else awards


class TieScoresNobody(Carcassonne):
    """A feature on which players tie for the most meeples scores for nobody."""

    def award_points(self, counts: Any, points: Any, max2: rules.Max2 = max,
                     ite: rules.Ite = rules.py_ite) -> list[Any]:
        return _nobody_on_tie(counts, points, max2, ite)


class TiePointsSplit(Carcassonne):
    """Players tied for the most meeples on a feature share its points out (rounded down)
    instead of each getting the full points."""

    def award_points(self, counts: Any, points: Any, max2: rules.Max2 = max,
                     ite: rules.Ite = rules.py_ite) -> list[Any]:
        awards = rules.award(counts, points, max2, ite)
        tied = sum(1 for a in awards if a)
        return [a // tied for a in awards] if tied > 1 else awards


class FarmTieScoresNobody(Carcassonne):
    """A field on which players tie for the most farmers scores for nobody."""

    def farm_award(self, counts: Any, points: Any, max2: rules.Max2 = max,
                   ite: rules.Ite = rules.py_ite) -> list[Any]:
        return _nobody_on_tie(counts, points, max2, ite)


class TurnJudgedBackwards(Carcassonne):
    """The U-turn test compares a new curve with the previous turn read the wrong way round
    (left for right): curves that turn back are allowed, and legal ones refused."""

    def river_problem(self, state: CarcState, k: int, rot: int, pos: int) -> str | None:
        swap = {LEFT: RIGHT, RIGHT: LEFT}
        river = state.river._replace(last_turn=swap.get(state.river.last_turn,
                                                        state.river.last_turn),
                                     last_curve=swap.get(state.river.last_curve,
                                                         state.river.last_curve))
        return uturn_problem(state.cfg, state.board, river, k, rot, pos)
