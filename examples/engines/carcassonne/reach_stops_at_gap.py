"""Mutant: A tower's reach stops at the first empty cell. Breaks CARC-TOWER-REACH (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import DELTA

RULE = "CARC-TOWER-REACH"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """A tower's reach stops at the first empty cell."""

    def reach_cells(self, state: CarcState, pos: int, height: int) -> list[int]:
        cells = [pos]
        for d in DELTA:
            for k in range(1, height + 1):
                if pos + k * d not in state.board:
                    break
                cells.append(pos + k * d)
        return cells

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-reach_stops_at_gap")
