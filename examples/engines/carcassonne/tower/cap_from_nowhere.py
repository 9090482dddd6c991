"""Mutant: A meeple capping a tower is not taken from the supply. Breaks CARC-TOWER-MEEPLES (tower
stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import CapFromNowhere as Mutant

RULE = "CARC-TOWER-MEEPLES"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-cap_from_nowhere")
