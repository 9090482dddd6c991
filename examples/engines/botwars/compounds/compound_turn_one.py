"""Compound mutant (issue 26): an engine with three departures at once, shaped like a real
one: run it behind `bare:` (the minimum capabilities, its own draws, no events).

1. BOTWARS-ENERGY-SPAWN, early and systematic: energy appears after turn 1 and then every
   three turns (1, 4, 7, ...), where the default profile places it after turns 3, 6, 9:
   every game departs at its first turn, as a real Bot Wars engine does.
2. BOTWARS-BATTLE, later: a botlet dies only where an adjacent enemy faces strictly fewer
   enemies than it does, so a one-on-one fight kills nobody (the seed's first picture
   kills both).
3. BOTWARS-WINNER, at the end: the turn limit ends the game with no winner named, however
   many botlets each bot has.

Its code is its own, not the departure library's (gamecert.reference_engine.botwars.
departures): the oracles and the models are tested on an engine nobody tuned them to.
"""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BOT, BotWars, BotWarsConfig

RULES = ("BOTWARS-ENERGY-SPAWN", "BOTWARS-BATTLE", "BOTWARS-WINNER")
PROFILE = "standard"


class TurnOneEngine(BotWars):
    def energy_due(self, cfg: BotWarsConfig, turns: int) -> bool:
        return turns % cfg.interval == 1 % cfg.interval

    def battle_deaths(self, cfg: BotWarsConfig,
                      grid: bytes) -> list[tuple[int, tuple[int, ...]]]:
        facing: dict[int, list[int]] = {}
        for sq, c in enumerate(grid):
            if c == BOT[1] or c == BOT[2]:
                foe = BOT[2] if c == BOT[1] else BOT[1]
                near = [n for n in cfg.nbrs[sq] if grid[n] == foe]
                if near:
                    facing[sq] = near
        return [(sq, tuple(sorted(near))) for sq, near in sorted(facing.items())
                if any(len(facing[n]) < len(near) for n in near)]

    def turn_limit_winner(self, cfg: BotWarsConfig, counts: tuple[int, int],
                          energy: tuple[int, int]) -> int:
        return 0


ENGINE = TurnOneEngine

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
