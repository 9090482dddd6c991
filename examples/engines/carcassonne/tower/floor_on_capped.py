"""Mutant: A capped tower still takes floors. Breaks CARC-TOWER-ACTION (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import FloorOnCapped as Mutant

RULE = "CARC-TOWER-ACTION"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-floor_on_capped")
