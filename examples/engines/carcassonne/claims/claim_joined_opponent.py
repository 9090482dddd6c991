"""Mutant: A feature may be claimed when only other players' meeples are on it. Breaks CARC-
CLAIM-UNCLAIMED."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import ClaimJoinedOpponent as Mutant

RULE = "CARC-CLAIM-UNCLAIMED"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-claim_joined_opponent")
