"""Mutant: A claim naming a field edge (or a missing monastery) puts the meeple on the tile's
first feature. Breaks CARC-CLAIM-PLACED-TILE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import CLAIM
from gamecert.reference_engine.contract import IllegalAction

RULE = "CARC-CLAIM-PLACED-TILE"


class Mutant(Carcassonne):
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


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-claim_on_field")
