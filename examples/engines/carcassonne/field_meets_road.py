"""Mutant: Only the new tile's road and town edges are matched: its field edges may face a
road or a town. Breaks CARC-PLACE-MATCH."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import LAND_PHASE, RIVER_EDGE

RULE = "CARC-PLACE-MATCH"


class Mutant(Carcassonne):
    """Only the new tile's road and town edges are matched: its field edges may face a road or
    a town."""

    def edges_match(self, state: CarcState, mine: int, theirs: int) -> bool:
        # in the land phase a field edge (0) of the new tile is let face anything but a river
        return mine == theirs or (state.phase == LAND_PHASE and mine == 0
                                  and theirs != RIVER_EDGE)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-field_meets_road")
