"""Compound mutant (issue 27): an engine with three departures at once, shaped like a real
one: run it behind `bare:` (the minimum capabilities, its own draws, no events).

1. BOTWARS-FIRST-BOTLETS, at the start of every game: each bot's first botlet already
   stands on its spawn point and the bot still owns its whole initial energy (the default
   profile starts the field empty and pays for the first botlets in turn 1).
2. BOTWARS-MOVE-COLLIDE, later: where botlets of both bots move onto one square, p2's
   enters it and p1's stays where it stands (the default profile: both stay).
3. BOTWARS-ENERGY-COLLECT, later: energy touched by one bot is collected only by a botlet
   that arrived beside it this turn (moved there, or spawned); one that stood still leaves
   it on the field, where the rules count every live botlet.

Its code is its own, not the departure library's (gamecert.reference_engine.botwars.
departures): none of the three is one of its models.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.botwars.engine import (
    BOT,
    EMPTY,
    ENERGY,
    BotWars,
    BotWarsConfig,
    BotWarsState,
    Move,
)
from gamecert.spec import Profile

RULES = ("BOTWARS-FIRST-BOTLETS", "BOTWARS-MOVE-COLLIDE", "BOTWARS-ENERGY-COLLECT")
PROFILE = "standard"


class FirstBotletsEngine(BotWars):
    def __init__(self) -> None:
        self.arrived: set[int] = set()  # the squares botlets moved or spawned onto this turn

    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        start = super().initial(profile, seed)
        field = bytearray(start.grid)
        for side in (1, 2):
            field[start.cfg.spawns[side]] = BOT[side]
        return start._replace(grid=bytes(field))

    def step_moves(self, cfg: BotWarsConfig, grid: bytearray,
                   moves: tuple[tuple[Move, ...], tuple[Move, ...]], energy: list[int],
                   events: list[Any]) -> None:
        wanted = {t for _, t in moves[1]}
        p1 = list(moves[0])
        while True:  # p1's botlets bound for p2's squares stay, and those behind them
            staying = {f for f, t in p1 if t in wanted}
            if not staying:
                break
            p1 = [(f, t) for f, t in p1 if f not in staying]
            wanted = staying
        super().step_moves(cfg, grid, (tuple(p1), moves[1]), energy, events)
        self.arrived = {t for _, t in (*p1, *moves[1])}

    def step_spawn(self, cfg: BotWarsConfig, grid: bytearray, side: int, energy: list[int],
                   razed: tuple[bool, bool], events: list[Any]) -> None:
        before = grid[cfg.spawns[side]]
        super().step_spawn(cfg, grid, side, energy, razed, events)
        if grid[cfg.spawns[side]] != before:
            self.arrived.add(cfg.spawns[side])

    def step_collect(self, cfg: BotWarsConfig, grid: bytearray, energy: list[int],
                     events: list[Any]) -> None:
        near = self.collect_neighbours(cfg)
        for sq in [i for i, c in enumerate(grid) if c == ENERGY]:
            botlets = [n for n in near[sq] if grid[n] in (BOT[1], BOT[2])]
            sides = {1 if grid[n] == BOT[1] else 2 for n in botlets}
            if len(sides) == 2:
                grid[sq] = EMPTY  # contested: removed, as the rules say
            elif sides and any(n in self.arrived for n in botlets):
                grid[sq] = EMPTY
                energy[next(iter(sides)) - 1] += 1


ENGINE = FirstBotletsEngine

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
