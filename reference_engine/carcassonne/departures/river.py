"""Departure models: The river phase: the spring, river draws and placements, the U-turn, the lake.

Each class changes one rule decision of the reference engine (one hook or one piece of
logic), so a state the class gives and the reference does not names that rule
(`fuzz.step.blame`). The public mutants in examples/engines/carcassonne import them from here.
This module must not import the harness.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import (
    DELTA,
    LAND_PHASE,
    RIVER_EDGE,
    RIVER_PHASE,
    STRAIGHT,
    Feat,
    River,
    lay,
    pack,
)
from gamecert.spec import Profile


class SpringTurned(Carcassonne):
    """The spring is laid turned half round (its river leaves through the bottom edge)."""

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        t, n = state.cfg.t, state.cfg.players
        board: dict[int, tuple[int, int]] = {}
        cells: dict[int, tuple[int, int]] = {}
        owner: dict[int, int] = {}
        feats: dict[int, Feat] = {}
        origin = pack(0, 0)
        lay(t, board, cells, owner, feats, origin, t.spring, 2, n)
        flow = t.rot[t.spring][2].river[0]
        return state._replace(board=board, cells=cells, owner=owner, feats=feats,
                              river=River(origin + DELTA[flow], flow, STRAIGHT, STRAIGHT))


class LandTileInRiver(Carcassonne):
    """Each river draw also hands the player a land tile."""

    def _draw(self, state: CarcState, k: Any) -> tuple[CarcState, list[Any]]:
        river = state.phase == RIVER_PHASE
        who = state.pending[0] if state.pending else state.to_move
        state, events = super()._draw(state, k)
        if river and any(state.deck):
            land = next(i for i, c in enumerate(state.deck) if c)
            deck = list(state.deck)
            deck[land] -= 1
            hands = list(state.hands)
            ids = state.cfg.t.ids
            hands[who - 1] = tuple(sorted((*hands[who - 1], land), key=ids.__getitem__))
            state = state._replace(deck=tuple(deck), hands=tuple(hands))
        return state, events


class RiverAnywhere(Carcassonne):
    """A river tile may go on any open cell where its edges fit, not only at the river's end."""

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None:
        if state.phase == RIVER_PHASE and pos != state.river.open_pos:
            # judged like a land tile: touching the board, every edge matching
            return super().placement_problem(state._replace(phase=LAND_PHASE), k, pos, rot)
        return super().placement_problem(state, k, pos, rot)


class RiverMeetsField(Carcassonne):
    """A river edge may face a field edge."""

    def edges_match(self, state: CarcState, mine: int, theirs: int) -> bool:
        return mine == theirs or {mine, theirs} == {RIVER_EDGE, 0}  # 0 is a field edge


class UturnAllowed(Carcassonne):
    """A river tile may turn the same way as the one before it (a U-turn)."""

    def river_problem(self, state: CarcState, k: int, rot: int, pos: int) -> str | None:
        return None


class LakeAnyTime(Carcassonne):
    """The lake can be drawn while other river tiles are left."""

    def _drawable(self, state: CarcState) -> tuple[int, ...]:
        return self._pile(state)
