"""Mutant: A captured opponent's meeple goes back to its owner instead of prison. Breaks CARC-
TOWER-CAPTURE (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import JSON, TOWER_CAP

RULE = "CARC-TOWER-CAPTURE"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
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

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-captured_sent_home")
