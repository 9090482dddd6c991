"""Mutant: A land tile may go on an empty cell that touches the board only at a corner.
Breaks CARC-PLACE-ADJACENT."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import AROUND, LAND_PHASE

RULE = "CARC-PLACE-ADJACENT"


class Mutant(Carcassonne):
    """A land tile may go on an empty cell that touches the board only at a corner."""

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None:
        if (state.phase == LAND_PHASE and pos not in state.cells and pos not in state.board
                and any(pos + d in state.board for d in AROUND)):
            cells = dict(state.cells)
            cells[pos] = (0, 0)  # an open cell with no edge to match
            return super().placement_problem(state._replace(cells=cells), k, pos, rot)
        return super().placement_problem(state, k, pos, rot)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-diagonal_ok")
