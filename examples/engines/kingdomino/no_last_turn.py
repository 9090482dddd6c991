"""Mutant: The game ends a turn early: after the second-to-last turn's plays.
Breaks KD-GAME-LENGTH."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULE = "KD-GAME-LENGTH"
PROFILE = "legend"


class Mutant(Kingdomino):
    """The game ends a turn early: after the second-to-last turn's plays."""

    def _next_turn(self, state: KdState, events: list[Any]) -> KdState:
        if state.turn + 1 >= state.cfg.turns:
            return self._finish(state, events)
        return super()._next_turn(state, events)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-no_last_turn")
