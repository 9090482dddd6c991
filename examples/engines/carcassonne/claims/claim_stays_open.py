"""Mutant: After a claim on a feature that stays open, the claim step goes on: a second claim
is allowed. Breaks CARC-CLAIM-ONE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import ClaimStaysOpen as Mutant

RULE = "CARC-CLAIM-ONE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-claim_stays_open")
