"""Mutant: A tower's reach stops at the first empty cell. Breaks CARC-TOWER-REACH (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import ReachStopsAtGap as Mutant

RULE = "CARC-TOWER-REACH"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-reach_stops_at_gap")
