"""Mutant: The territory may span 6 x 6 squares. Breaks KD-PLACE-EXTENT."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.placement import ExtentSixBySix as Mutant

RULE = "KD-PLACE-EXTENT"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-extent_6x6")
