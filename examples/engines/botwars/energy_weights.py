"""Mutant: the energy step lists the free mirror pairs with unequal weights (the first pair
twice as likely as each other one). The pairs it lists and every transition are right:
only the probabilities are wrong. Breaks BOTWARS-ENERGY-SPAWN."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsState
from gamecert.reference_engine.contract import Outcome

RULE = "BOTWARS-ENERGY-SPAWN"


class EnergyWeights(BotWars):
    def chance(self, state: BotWarsState) -> list[Outcome[Any]]:
        out = super().chance(state)
        if len(out) < 2:
            return out
        each = Fraction(1, len(out) + 1)
        return [Outcome(o.action, 2 * each if i == 0 else each) for i, o in enumerate(out)]


ENGINE = EnergyWeights

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
