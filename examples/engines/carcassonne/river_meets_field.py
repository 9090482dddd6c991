"""Mutant: A river edge may face a field edge. Breaks CARC-RIVER-MEETS-RIVER."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import RIVER_EDGE

RULE = "CARC-RIVER-MEETS-RIVER"


class Mutant(Carcassonne):
    """A river edge may face a field edge."""

    def edges_match(self, state: CarcState, mine: int, theirs: int) -> bool:
        return mine == theirs or {mine, theirs} == {RIVER_EDGE, 0}  # 0 is a field edge


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-river_meets_field")
