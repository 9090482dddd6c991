"""Mutant: The game ends as soon as the land deck is empty, with tiles still in hands. Breaks
CARC-END-TILES."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import LAND_PHASE

RULE = "CARC-END-TILES"


class Mutant(Carcassonne):
    """The game ends as soon as the land deck is empty, with tiles still in hands."""

    def _start_turn(self, state: CarcState, player: int, events: list[Any]) -> CarcState:
        if state.phase == LAND_PHASE and not any(state.deck):
            return self._finish(state._replace(to_move=player), "tiles-exhausted", events)
        return super()._start_turn(state, player, events)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-end_when_deck_empty")
