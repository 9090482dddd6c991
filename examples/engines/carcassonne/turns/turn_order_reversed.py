"""Mutant: Turns go round backwards: player 1, then N, N - 1, ... Breaks CARC-TURN-ORDER."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import TurnOrderReversed as Mutant

RULE = "CARC-TURN-ORDER"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-turn_order_reversed")
