"""Mutant: each tile of a new line is drawn with the wrong weights (the lowest id left is
listed as twice as likely as each other tile). Its set of outcomes and every transition are
right: only the probabilities it lists are wrong. Breaks KD-DEAL."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamecert.reference_engine.contract import Outcome
from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULE = "KD-DEAL"
PROFILE = "legend"


class Mutant(Kingdomino):
    def chance(self, state: KdState) -> list[Outcome[Any]]:
        out = super().chance(state)
        if len(out) < 2 or out[0].action[0] != "deal":
            return out
        n = len(out)
        low = min(o.action[1] for o in out)
        return [Outcome(o.action, Fraction(2 if o.action[1] == low else 1, n + 1)) for o in out]


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-deal_weights")
