"""Mutant: energy placed every 2 turns instead of every 3. Breaks BOTWARS-ENERGY-SPAWN."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig

RULE = "BOTWARS-ENERGY-SPAWN"


class EnergyEvery2(BotWars):
    def energy_due(self, cfg: BotWarsConfig, turns: int) -> bool:
        return turns >= 1 and turns % 2 == 0


ENGINE = EnergyEvery2

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
