"""Mutant: The moving piece counts as its own neighbour. Breaks FLIT-MOVE-VALID."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-MOVE-VALID"


class Mutant(Flit):
    """The moving piece counts as its own neighbour."""

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        return any(state.board[n] == bot for n in self.neighbours(state)[dest])


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-self_neighbour")
