"""Mutant: The turn goes 1, 2, 4, 3. Breaks FLIT-TURN-ORDER."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit

RULE = "FLIT-TURN-ORDER"


class Mutant(Flit):
    """The turn goes 1, 2, 4, 3."""

    def next_bot(self, bot: int) -> int:
        return {1: 2, 2: 4, 4: 3, 3: 1}[bot]


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-turn_order_skip")
