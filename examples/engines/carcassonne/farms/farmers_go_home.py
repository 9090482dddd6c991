"""Mutant: A player's farmers go back to the supply at the start of that player's next turn.
Breaks CARC-FARM-STAYS (farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.farms import FarmersGoHome as Mutant

RULE = "CARC-FARM-STAYS"
PROFILE = "syncs-2025-farms"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farmers_go_home")
