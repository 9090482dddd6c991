"""Mutant: The first turn's order is the seat order reversed. Breaks KD-ORDER-FIRST."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULE = "KD-ORDER-FIRST"
PROFILE = "legend"


class Mutant(Kingdomino):
    """The first turn's order is the seat order reversed."""

    def first_orders(self, state: KdState) -> list[tuple[int, ...]]:
        return [tuple(reversed(o)) for o in super().first_orders(state)]


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-first_order_reversed")
