"""Mutant: A tower also reaches along the diagonals. Breaks CARC-TOWER-REACH (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import ROW

RULE = "CARC-TOWER-REACH"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """A tower also reaches along the diagonals."""

    def reach_cells(self, state: CarcState, pos: int, height: int) -> list[int]:
        cells = super().reach_cells(state, pos, height)
        for d in (-ROW - 1, -ROW + 1, ROW - 1, ROW + 1):
            cells += [pos + k * d for k in range(1, height + 1)]
        return cells

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-reach_diagonal")
