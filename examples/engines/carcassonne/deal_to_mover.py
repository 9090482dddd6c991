"""Mutant: Every draw goes to the player whose turn it is, so the opening deal lands in one
hand. Breaks CARC-DECK-DRAW."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-DECK-DRAW"


class Mutant(Carcassonne):
    """Every draw goes to the player whose turn it is, so the opening deal lands in one hand."""

    def _draw(self, state: CarcState, k: Any) -> tuple[CarcState, list[Any]]:
        pending = (state.to_move,) * len(state.pending)
        return super()._draw(state._replace(pending=pending), k)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-deal_to_mover")
