"""Mutant: The ransom moves 2 points instead of 3. Breaks CARC-TOWER-RANSOM (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import RansomPays2 as Mutant

RULE = "CARC-TOWER-RANSOM"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-ransom_pays_2")
