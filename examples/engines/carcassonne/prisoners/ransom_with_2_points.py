"""Mutant: A player with 2 points may pay the ransom (and go below zero). Breaks CARC-TOWER-RANSOM
(tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import RansomWith2Points as Mutant

RULE = "CARC-TOWER-RANSOM"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-ransom_with_2_points")
