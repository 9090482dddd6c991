"""Mutant: A player with no floor left may still build. Breaks CARC-TOWER-FLOORS (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import FloorsUnlimited as Mutant

RULE = "CARC-TOWER-FLOORS"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-floors_unlimited")
