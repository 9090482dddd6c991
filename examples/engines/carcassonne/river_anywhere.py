"""Mutant: A river tile may go on any open cell where its edges fit, not only at the river's
end. Breaks CARC-RIVER-CONTIGUOUS."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import LAND_PHASE, RIVER_PHASE

RULE = "CARC-RIVER-CONTIGUOUS"


class Mutant(Carcassonne):
    """A river tile may go on any open cell where its edges fit, not only at the river's end."""

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None:
        if state.phase == RIVER_PHASE and pos != state.river.open_pos:
            # judged like a land tile: touching the board, every edge matching
            return super().placement_problem(state._replace(phase=LAND_PHASE), k, pos, rot)
        return super().placement_problem(state, k, pos, rot)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-river_anywhere")
