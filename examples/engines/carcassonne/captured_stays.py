"""Mutant: A captured meeple is announced but stays where it was. Breaks CARC-TOWER-CAPTURE (tower
stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import JSON, TOWER_CAP, spot_of, unpack

RULE = "CARC-TOWER-CAPTURE"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
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

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-captured_stays")
