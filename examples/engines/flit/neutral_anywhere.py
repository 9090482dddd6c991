"""Mutant: A neutral may land on any empty square, available or not. Breaks FLIT-NEUTRAL-ADD."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-NEUTRAL-ADD"


class Mutant(Flit):
    """A neutral may land on any empty square, available or not."""

    def neutral_allowed(self, state: FlitState, square: int) -> bool:
        return state.board[square] == 0


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-neutral_anywhere")
