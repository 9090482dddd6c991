"""Mutant: Turns go round backwards: player 1, then N, N - 1, ... Breaks CARC-TURN-ORDER."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import RIVER_PHASE

RULE = "CARC-TURN-ORDER"


class Mutant(Carcassonne):
    """Turns go round backwards: player 1, then N, N - 1, ..."""

    def _next_turn(self, state: CarcState, events: list[Any]) -> CarcState:
        nxt = (state.to_move - 2) % state.cfg.players + 1
        if state.phase == RIVER_PHASE and (state.river.open_pos < 0
                                           or not sum(state.river_pile)):
            return self._end_river(state, events)
        return self._start_turn(state, nxt, events)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-turn_order_reversed")
