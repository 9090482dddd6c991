"""Mutant: The opening deal gives each player one land tile instead of two. Breaks CARC-HAND-
DEAL."""

from __future__ import annotations

import dataclasses
from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-HAND-DEAL"


class Mutant(Carcassonne):
    """The opening deal gives each player one land tile instead of two."""

    def _end_river(self, state: CarcState, events: list[Any]) -> CarcState:
        short = dataclasses.replace(state.cfg, opening_deal=state.cfg.opening_deal - 1)
        return super()._end_river(state._replace(cfg=short), events)._replace(cfg=state.cfg)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-deal_one")
