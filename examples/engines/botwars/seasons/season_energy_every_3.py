"""Season mutant: energy every 3 turns, the shipped profiles' interval, whatever the season
says. Under a season that places it every 5 turns (examples/seasons/botwars-energy-5.toml)
it breaks BOTWARS-ENERGY-SPAWN; under the shipped profiles it is the reference."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig

RULE = "BOTWARS-ENERGY-SPAWN"
SEASON = "botwars-energy-5.toml"


class EnergyEvery3(BotWars):
    def energy_due(self, cfg: BotWarsConfig, turns: int) -> bool:
        if cfg.energy_from_first:
            return turns >= 1 and (turns - 1) % 3 == 0
        return turns >= 1 and turns % 3 == 0


ENGINE = EnergyEvery3

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
