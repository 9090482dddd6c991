"""Mutant: The land deck is one tile (a D) short. Breaks CARC-TILES."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import TilesShort as Mutant

RULE = "CARC-TILES"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-tiles_short")
