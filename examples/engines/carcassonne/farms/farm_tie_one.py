"""Mutant: When players tie for the most farmers on a field, only the lowest player id scores.
Breaks CARC-FARM-MAJORITY (farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.farms import FarmTieOne as Mutant

RULE = "CARC-FARM-MAJORITY"
PROFILE = "syncs-2025-farms"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farm_tie_one")
