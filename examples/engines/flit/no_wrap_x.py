"""Mutant: Move adjacency forgets to wrap left-right. Breaks FLIT-BOARD-TORUS."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-BOARD-TORUS"


class Mutant(Flit):
    """Move adjacency forgets to wrap left-right."""

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        w, board, x = state.width, state.board, dest % state.width
        return any(n != origin and board[n] == bot and abs(n % w - x) <= 1
                   for n in self.neighbours(state)[dest])


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-no_wrap_x")
