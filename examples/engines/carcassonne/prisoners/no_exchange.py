"""Mutant: Players holding each other's meeples keep them. Breaks CARC-TOWER-EXCHANGE (tower
stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import NoExchange as Mutant

RULE = "CARC-TOWER-EXCHANGE"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-no_exchange")
