"""Departure models: The Tower (profile syncs-2025-tower).

Each class changes one rule decision of the reference engine (one hook or one piece of
logic), so a state the class gives and the reference does not names that rule
(`fuzz.step.blame`). The public mutants in examples/engines/carcassonne import them from here.
This module must not import the harness.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState, rules
from gamecert.reference_engine.carcassonne.engine import (
    DELTA,
    JSON,
    ROW,
    spot_of,
    unpack,
)
from gamecert.reference_engine.carcassonne.state import TOWER_CAP, _add
from gamecert.spec import Profile


class TowerTilesMissing(Carcassonne):
    """The Tower tiles never reach the deck."""

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        t = state.cfg.t
        deck = tuple(0 if t.rot[k][0].tower else c for k, c in enumerate(state.deck))
        return state._replace(deck=deck)


class FloorsUnlimited(Carcassonne):
    """A player with no floor left may still build."""

    def floors_left(self, state: CarcState, player: int) -> bool:
        return True


class FloorOnCapped(Carcassonne):
    """A capped tower still takes floors."""

    def tower_sites(self, state: CarcState) -> list[int]:
        t = state.cfg.t
        return sorted(pos for pos, (k, r) in state.board.items() if t.rot[k][r].tower)


class ReachDiagonal(Carcassonne):
    """A tower also reaches along the diagonals."""

    def reach_cells(self, state: CarcState, pos: int, height: int) -> list[int]:
        cells = super().reach_cells(state, pos, height)
        for d in (-ROW - 1, -ROW + 1, ROW - 1, ROW + 1):
            cells += [pos + k * d for k in range(1, height + 1)]
        return cells


class ReachStopsAtGap(Carcassonne):
    """A tower's reach stops at the first empty cell."""

    def reach_cells(self, state: CarcState, pos: int, height: int) -> list[int]:
        cells = [pos]
        for d in DELTA:
            for k in range(1, height + 1):
                if pos + k * d not in state.board:
                    break
                cells.append(pos + k * d)
        return cells


class CapturedStays(Carcassonne):
    """A captured meeple is announced but stays where it was."""

    def capture(self, state: CarcState, cell: int, seg: int, events: list[JSON]) -> CarcState:
        if seg == TOWER_CAP:
            owner, spot = state.towers[cell][1], "tower"
        else:
            owner = state.meeples[cell * 8 + seg]
            k, r = state.board[cell]
            spot = spot_of(state.cfg.t.rot[k][r], seg)
        events.append({"type": "meeple-captured", "rule": "CARC-TOWER-CAPTURE",
                       "player": state.to_move, "owner": owner, "at": unpack(cell), "on": spot,
                       "to": "supply" if owner == state.to_move else "prison"})
        return state


class CapturedSentHome(Carcassonne):
    """A captured opponent's meeple goes back to its owner instead of prison."""

    def capture(self, state: CarcState, cell: int, seg: int, events: list[JSON]) -> CarcState:
        owner = (state.towers[cell][1] if seg == TOWER_CAP
                 else state.meeples[cell * 8 + seg])
        after = super().capture(state, cell, seg, events)
        if owner == state.to_move or events[-1]["type"] == "prisoners-exchanged":
            return after
        prisoners = [list(row) for row in after.prisoners]
        prisoners[state.to_move - 1][owner - 1] -= 1
        supply = list(after.supply)
        supply[owner - 1] += 1
        return after._replace(prisoners=tuple(tuple(row) for row in prisoners),
                              supply=tuple(supply))


class NoExchange(Carcassonne):
    """Players holding each other's meeples keep them."""

    def exchange(self, prisoners: list[list[Any]], supply: list[Any], a: int, b: int,
                 events: list[JSON] | None, ite: rules.Ite = rules.py_ite) -> None:
        return


class RansomWith2Points(Carcassonne):
    """A player with 2 points may pay the ransom (and go below zero)."""

    def ransom_allowed(self, state: CarcState, payer: int, captor: int) -> str | None:
        if state.scores[payer - 1] == state.cfg.ransom - 1:
            cut = list(state.scores)
            cut[payer - 1] += 1  # judged as if it had the full ransom
            return super().ransom_allowed(state._replace(scores=tuple(cut)), payer, captor)
        return super().ransom_allowed(state, payer, captor)

    def ransom_points(self, state: CarcState) -> tuple[int, int]:
        paid = min(state.cfg.ransom, state.scores[state.to_move - 1])
        return paid, paid


class TwoRansoms(Carcassonne):
    """A player may pay a ransom twice in one turn."""

    def ransom_allowed(self, state: CarcState, payer: int, captor: int) -> str | None:
        return super().ransom_allowed(state._replace(ransomed=False), payer, captor)


class RansomPays2(Carcassonne):
    """The ransom moves 2 points instead of 3."""

    def ransom_points(self, state: CarcState) -> tuple[int, int]:
        return state.cfg.ransom - 1, state.cfg.ransom - 1


class CapFromNowhere(Carcassonne):
    """A meeple capping a tower is not taken from the supply."""

    def _cap(self, state: CarcState, pos: object) -> tuple[CarcState, list[JSON]]:
        after, events = super()._cap(state, pos)
        return after._replace(supply=_add(after.supply, state.to_move - 1, 1)), events
