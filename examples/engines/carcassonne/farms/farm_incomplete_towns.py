"""Mutant: A farm scores every town it borders, completed or not. Breaks CARC-FARM-SCORE
(farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.farms import FarmIncompleteTowns as Mutant

RULE = "CARC-FARM-SCORE"
PROFILE = "syncs-2025-farms"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farm_incomplete_towns")
