"""Mutant: The tile-placed event gives the cell on the bot protocol's grid, not as [x, y].
Breaks CARC-BOARD-COORDS."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import EventWireCoords as Mutant

RULE = "CARC-BOARD-COORDS"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-event_wire_coords")
