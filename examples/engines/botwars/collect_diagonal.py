"""Mutant: botlets diagonal to energy collect it too. Breaks BOTWARS-ENERGY-COLLECT."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig

RULE = "BOTWARS-ENERGY-COLLECT"


class CollectDiagonal(BotWars):
    def collect_neighbours(self, cfg: BotWarsConfig) -> tuple[tuple[int, ...], ...]:
        return cfg.nbrs8


ENGINE = CollectDiagonal

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
