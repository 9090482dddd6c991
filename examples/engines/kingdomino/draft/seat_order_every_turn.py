"""Mutant: Every turn the kings act in seat order, not by the ids they picked. Breaks KD-ORDER."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import SeatOrderEveryTurn as Mutant

RULE = "KD-ORDER"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-seat_order_every_turn")
