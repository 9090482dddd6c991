"""Mutant: Each castle stands on (3, 4), not on the centre (4, 4). Breaks KD-GRID."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.placement import CastleOffCentre as Mutant

RULE = "KD-GRID"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-castle_off_centre")
