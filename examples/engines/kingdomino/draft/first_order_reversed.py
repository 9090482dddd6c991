"""Mutant: The first turn's order is the seat order reversed. Breaks KD-ORDER-FIRST."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import FirstOrderReversed as Mutant

RULE = "KD-ORDER-FIRST"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-first_order_reversed")
