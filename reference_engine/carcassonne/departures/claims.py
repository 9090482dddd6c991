"""Departure models: Placement, features, claims and meeples, and the bot protocol.

Each class changes one rule decision of the reference engine (one hook or one piece of
logic), so a state the class gives and the reference does not names that rule
(`fuzz.step.blame`). The public mutants in examples/engines/carcassonne import them from here.
This module must not import the harness.
"""

from __future__ import annotations

import json
from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import (
    AROUND,
    CLAIM,
    COMPLETE_RULE,
    LAND_PHASE,
    RIVER_EDGE,
    Action,
    Feat,
    _join,
)
from gamecert.reference_engine.carcassonne.protocol import FRAME, frame, to_wire_pos
from gamecert.reference_engine.contract import IllegalAction


class DiagonalOk(Carcassonne):
    """A land tile may go on an empty cell that touches the board only at a corner."""

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None:
        if (state.phase == LAND_PHASE and pos not in state.cells and pos not in state.board
                and any(pos + d in state.board for d in AROUND)):
            cells = dict(state.cells)
            cells[pos] = (0, 0)  # an open cell with no edge to match
            return super().placement_problem(state._replace(cells=cells), k, pos, rot)
        return super().placement_problem(state, k, pos, rot)


class FieldMeetsRoad(Carcassonne):
    """Only the new tile's road and town edges are matched: its field edges may face a road or
    a town."""

    def edges_match(self, state: CarcState, mine: int, theirs: int) -> bool:
        # in the land phase a field edge (0) of the new tile is let face anything but a river
        return mine == theirs or (state.phase == LAND_PHASE and mine == 0
                                  and theirs != RIVER_EDGE)


class BannersLostInJoin(Carcassonne):
    """When a placed tile's town joins a town on the board, only the board town's banners are
    kept."""

    @staticmethod
    def join_features(owner: dict[int, int], feats: dict[int, Feat], a: int, b: int) -> None:
        # `a` holds the new tile's part, `b` the neighbour's across the matched edge
        kept = feats[b].banners
        _join(owner, feats, a, b)
        if a != b:
            fid = owner[a]
            feats[fid] = feats[fid]._replace(banners=kept)


class EventWireCoords(Carcassonne):
    """The tile-placed event gives the cell on the bot protocol's grid, not as [x, y]."""

    def placed_event(self, state: CarcState, k: int, pos: int, rot: int) -> Any:
        event = super().placed_event(state, k, pos, rot)
        event["at"] = to_wire_pos(state.cfg, event["at"])
        return event


class ClaimJoinedOpponent(Carcassonne):
    """A feature may be claimed when only other players' meeples are on it."""

    def feature_free(self, f: Feat, player: int) -> bool:
        return f.meeples[player - 1] == 0


class ClaimOnField(Carcassonne):
    """A claim naming a field edge (or a missing monastery) puts the meeple on the tile's first
    feature."""

    def claim_segment(self, state: CarcState, spot: str) -> int:
        try:
            return super().claim_segment(state, spot)
        except IllegalAction:
            if state.step == CLAIM:
                k, r = state.board[state.placed]
                if state.cfg.t.rot[k][r].segs:
                    return 0
            raise


class ClaimStaysOpen(Carcassonne):
    """After a claim on a feature that stays open, the claim step goes on: a second claim is
    allowed."""

    def _end_claim(self, state: CarcState, events: list[Any]) -> CarcState:
        if events and events[-1]["type"] == "meeple-placed" and not self._completed_by(
                state, state.placed):
            return state  # still the claim step
        return super()._end_claim(state, events)


class ClaimWithoutMeeple(Carcassonne):
    """A player with no meeple left may still claim."""

    def has_meeple(self, state: CarcState, player: int) -> bool:
        return True


class MeeplesKept(Carcassonne):
    """Meeples stay on a completed feature after it is scored."""

    def _score(self, state: CarcState, fids: list[int], events: list[Any]) -> CarcState:
        # the reference's _score without giving the meeples back
        if not fids:
            return state
        cfg = state.cfg
        scores = list(state.scores)
        for fid in fids:
            f = state.feats[fid]
            value = self.completed_points(cfg, f)
            awards = self.award_points(f.meeples, value)
            events.append(self._feature_event(state, f, "feature-completed",
                                              COMPLETE_RULE[f.kind], value, awards))
            for i, a in enumerate(awards):
                scores[i] += a
        return state._replace(scores=tuple(scores))


class FrameLengthUnchecked(Carcassonne):
    """The referee ignores the length prefix of a bot's message."""

    def referee(self, state: CarcState, text: str) -> Action:
        m = FRAME.fullmatch(text)
        return super().referee(state, frame(m.group(2)) if m else text)


class PlayerIdUnchecked(Carcassonne):
    """The referee takes any player_id as the player to move's."""

    def referee(self, state: CarcState, text: str) -> Action:
        m = FRAME.fullmatch(text)
        # a well-framed reply (the frame is checked as the reference does) gets its
        # player_id replaced by the mover's
        if m and int(m.group(1)) == len(m.group(2)) and len(text) <= state.cfg.max_chars:
            try:
                data = json.loads(m.group(2))
            except ValueError:
                data = None
            if isinstance(data, dict) and "player_id" in data and state.to_move:
                data["player_id"] = state.to_move - 1
                text = frame(json.dumps(data))
        return super().referee(state, text)
