"""Mutant: A farmer may go on a field that, as joined, already holds farmers. Breaks
CARC-FARM-CLAIM (farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.farms import FarmClaimJoined as Mutant

RULE = "CARC-FARM-CLAIM"
PROFILE = "syncs-2025-farms"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farm_claim_joined")
