"""Mutant: Every turn the kings act in seat order, not by the ids they picked. Breaks KD-ORDER."""

from __future__ import annotations

from collections.abc import Sequence

from gamecert.reference_engine.kingdomino import Kingdomino

RULE = "KD-ORDER"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Every turn the kings act in seat order, not by the ids they picked."""

    def turn_order(self, line: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        return sorted(((t, o) for t, o in line if o), key=lambda k: (k[1], k[0]))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-seat_order_every_turn")
