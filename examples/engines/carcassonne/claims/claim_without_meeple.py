"""Mutant: A player with no meeple left may still claim. Breaks CARC-MEEPLE-SUPPLY."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import ClaimWithoutMeeple as Mutant

RULE = "CARC-MEEPLE-SUPPLY"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-claim_without_meeple")
