"""Mutant: Plays the second public tile list (tiles 13 and 37) whatever the profile says.
Breaks KD-TILES."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.placement import OtherTileList as Mutant

RULE = "KD-TILES"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-other_tile_list")
