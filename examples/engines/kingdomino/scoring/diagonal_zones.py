"""Mutant: Squares of one terrain that touch diagonally join one zone. Breaks KD-SCORE-ZONES."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.scoring import DiagonalZones as Mutant

RULE = "KD-SCORE-ZONES"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-diagonal_zones")
