"""Mutant: energy touched by both bots goes to p1 instead of vanishing. Breaks
BOTWARS-ENERGY-CONTESTED."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig

RULE = "BOTWARS-ENERGY-CONTESTED"


class ContestedToP1(BotWars):
    def energy_taker(self, cfg: BotWarsConfig, n1: int, n2: int) -> int:
        return 1 if n1 else 2


ENGINE = ContestedToP1

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
