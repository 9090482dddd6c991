"""Mutant: The turn goes 1, 2, 4, 3. Breaks FLIT-TURN-ORDER."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import TurnOrderSkip as Mutant

RULE = "FLIT-TURN-ORDER"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-turn_order_skip")
