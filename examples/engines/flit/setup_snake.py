"""Mutant: Second initial pieces are dealt in reverse (snake) order. Breaks FLIT-SETUP-ORDER."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit

RULE = "FLIT-SETUP-ORDER"


class Mutant(Flit):
    """Second initial pieces are dealt in reverse (snake) order."""

    def setup_bot(self, placed: int) -> int:
        return placed + 1 if placed < 4 else 8 - placed


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-setup_snake")
