"""Mutant: at the turn limit the bot with more energy wins, not the one with more botlets.
Breaks BOTWARS-WINNER."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig

RULE = "BOTWARS-WINNER"


class WinnerByEnergy(BotWars):
    def turn_limit_winner(self, cfg: BotWarsConfig, counts: tuple[int, int],
                          energy: tuple[int, int]) -> int:
        if energy[0] == energy[1]:
            return 0
        return 1 if energy[0] > energy[1] else 2


ENGINE = WinnerByEnergy

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
