"""Mutant: a razed spawn still produces botlets. Breaks BOTWARS-SPAWN."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig

RULE = "BOTWARS-SPAWN"


class SpawnWhenRazed(BotWars):
    def may_spawn(self, cfg: BotWarsConfig, energy: int, razed: bool) -> bool:
        return energy >= cfg.spawn_cost


ENGINE = SpawnWhenRazed

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
