"""Mutant: A meeple capping a tower is not taken from the supply. Breaks CARC-TOWER-MEEPLES (tower
stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import JSON, _add

RULE = "CARC-TOWER-MEEPLES"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """A meeple capping a tower is not taken from the supply."""

    def _cap(self, state: CarcState, pos: object) -> tuple[CarcState, list[JSON]]:
        after, events = super()._cap(state, pos)
        return after._replace(supply=_add(after.supply, state.to_move - 1, 1)), events

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-cap_from_nowhere")
