"""Mutant: after the river, the land draw lists every tile kind left as equally likely,
whatever its copies (a kind with 9 copies left is drawn as often as one with 1). Its set of
outcomes and every transition are right: only the probabilities it lists are wrong. Breaks
CARC-DECK-DRAW."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import RIVER_PHASE
from gamecert.reference_engine.contract import Outcome

RULE = "CARC-DECK-DRAW"


class Mutant(Carcassonne):
    def chance(self, state: CarcState) -> list[Outcome[Any]]:
        out = super().chance(state)
        if not out or state.phase == RIVER_PHASE:
            return out
        return [Outcome(o.action, Fraction(1, len(out))) for o in out]


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-draw_by_kind")
