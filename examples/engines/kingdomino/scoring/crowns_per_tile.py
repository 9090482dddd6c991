"""Mutant: Crowns are counted per square, not multiplied by their zone's size.
Breaks KD-SCORE-ZONES."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.scoring import CrownsPerSquare as Mutant

RULE = "KD-SCORE-ZONES"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-crowns_per_tile")
