"""Mutant: energy may be placed on the spawn points under every reading, though the default
one (not-on-spawn) keeps them clear. Breaks BOTWARS-ENERGY-SQUARES."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig

RULE = "BOTWARS-ENERGY-SQUARES"


class EnergyOnSpawn(BotWars):
    def energy_may_cover(self, cfg: BotWarsConfig, square: int) -> bool:
        return True


ENGINE = EnergyOnSpawn

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
