"""Mutant: The tile-placed event gives the cell on the bot protocol's grid, not as [x, y].
Breaks CARC-BOARD-COORDS."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.protocol import to_wire_pos

RULE = "CARC-BOARD-COORDS"


class Mutant(Carcassonne):
    """The tile-placed event gives the cell on the bot protocol's grid, not as [x, y]."""

    def placed_event(self, state: CarcState, k: int, pos: int, rot: int) -> Any:
        event = super().placed_event(state, k, pos, rot)
        event["at"] = to_wire_pos(state.cfg, event["at"])
        return event


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-event_wire_coords")
