"""Mutant: Hands are topped up to two tiles at the start of a turn, not three. Breaks CARC-
HAND-SIZE."""

from __future__ import annotations

import dataclasses
from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-HAND-SIZE"


class Mutant(Carcassonne):
    """Hands are topped up to two tiles at the start of a turn, not three."""

    def _start_turn(self, state: CarcState, player: int, events: list[Any]) -> CarcState:
        small = dataclasses.replace(state.cfg, hand_max=state.cfg.hand_max - 1)
        out = super()._start_turn(state._replace(cfg=small), player, events)
        return out._replace(cfg=state.cfg)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-hand_of_two")
