"""Bot Wars' targets for `hypothesis.target`: enemies in contact, contested energy, botlets
at the enemy spawn, turns elapsed. Reads the reference's state only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamecert.reference_engine.botwars import BotWars, BotWarsState
from gamecert.reference_engine.botwars.engine import BOT, ENERGY

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


GAME = BotWars()  # the reference's helpers (botlets, free pairs, random lists); it is pure


def target_scores(ls: Lockstep) -> dict[str, float]:
    state: BotWarsState = ls.ref
    cfg, grid = state.cfg, state.grid
    one, two = BOT[1], BOT[2]
    contacts = sum(grid[n] == two for sq in GAME.botlets(grid, 1) for n in cfg.nbrs[sq])
    contested = 0
    sq = grid.find(ENERGY)
    while sq >= 0:
        near = [grid[n] for n in cfg.nbrs[sq]]
        contested += one in near and two in near
        sq = grid.find(ENERGY, sq + 1)
    raiders = sum(grid[n] == BOT[3 - side] for side in (1, 2)
                  for n in (cfg.spawns[side], *cfg.nbrs[cfg.spawns[side]]))
    return {"contacts": float(contacts), "contested energy": float(contested),
            "botlets at the enemy spawn": float(raiders),
            "turns elapsed": float(state.turns)}
