"""Mutant: the neutral step lists its outcomes with the wrong weights (a neutral lands on an
available square with probability 1 in 8, not 1 in hit_denominator; the misses make up the
rest). Its set of outcomes and every transition are right: only the probabilities it lists
are wrong. Breaks FLIT-NEUTRAL-ADD."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamecert.reference_engine.contract import Outcome
from gamecert.reference_engine.flit import Flit
from gamecert.reference_engine.flit.engine import FlitState

RULE = "FLIT-NEUTRAL-ADD"


class Mutant(Flit):
    def chance(self, state: FlitState) -> list[Outcome[Any]]:
        out = super().chance(state)
        if not out or out[0].action[0] != "neutral":
            return out
        square = Fraction(1, len(state.board))
        available = {o.action[1] for o in out if o.action[2]}
        return [Outcome(o.action, o.probability if o.action[1] not in available
                        else square / 8 if o.action[2] else square * 7 / 8) for o in out]


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-neutral_weights")
