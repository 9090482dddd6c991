"""Mutant: Each river draw also hands the player a land tile. Breaks CARC-RIVER-DRAW."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import RIVER_PHASE

RULE = "CARC-RIVER-DRAW"


class Mutant(Carcassonne):
    """Each river draw also hands the player a land tile."""

    def _draw(self, state: CarcState, k: Any) -> tuple[CarcState, list[Any]]:
        river = state.phase == RIVER_PHASE
        who = state.pending[0] if state.pending else state.to_move
        state, events = super()._draw(state, k)
        if river and any(state.deck):
            land = next(i for i, c in enumerate(state.deck) if c)
            deck = list(state.deck)
            deck[land] -= 1
            hands = list(state.hands)
            ids = state.cfg.t.ids
            hands[who - 1] = tuple(sorted((*hands[who - 1], land), key=ids.__getitem__))
            state = state._replace(deck=tuple(deck), hands=tuple(hands))
        return state, events


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-land_tile_in_river")
