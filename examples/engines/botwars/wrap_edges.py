"""Mutant (a cascade pattern: an engine that reads adjacency differently): the field wraps
at its edges like a torus, for moves, battles and energy alike, where the profile's field
has edges. Breaks BOTWARS-GRID, and only it: the moves and battles across an edge follow
from the grid, and must not be charged to BOTWARS-MOVE or BOTWARS-BATTLE."""

from __future__ import annotations

import dataclasses
from typing import Any

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsState, neighbour_table
from gamecert.spec import Profile

RULE = "BOTWARS-GRID"


def _wrapped(state: BotWarsState) -> BotWarsState:
    cfg = state.cfg
    return state._replace(cfg=dataclasses.replace(
        cfg, wrap=True, nbrs=neighbour_table(cfg.rows, cfg.cols, True),
        nbrs8=neighbour_table(cfg.rows, cfg.cols, True, True)))


class WrapEdges(BotWars):
    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        return _wrapped(super().initial(profile, seed))

    def load(self, profile: Profile, observed: Any) -> BotWarsState:
        return _wrapped(super().load(profile, observed))


ENGINE = WrapEdges

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
