"""Mutant: Each river draw also hands the player a land tile. Breaks CARC-RIVER-DRAW."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.river import LandTileInRiver as Mutant

RULE = "CARC-RIVER-DRAW"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-land_tile_in_river")
