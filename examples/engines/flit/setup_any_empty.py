"""Mutant: Initial pieces may go on any empty square. Breaks FLIT-SETUP-AVAILABLE."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-SETUP-AVAILABLE"


class Mutant(Flit):
    """Initial pieces may go on any empty square."""

    def setup_allowed(self, state: FlitState, square: int) -> bool:
        return state.board[square] == 0


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-setup_any_empty")
