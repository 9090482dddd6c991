"""Compound mutant: three departures at once, as an engine nobody here wrote might have them.

1. KD-ORDER-FIRST (the first steps of every game): the first turn's order starts from the
   last seat and goes round (4, 1, 2, 3 with four players), not the seat order.
2. KD-SCORE-ZONES (the final scoring): the scorer's list of terrains has no lake, so lake
   zones score nothing, crowns or not.
3. KD-ORDER (the last two turns): once fewer than two lines are left to draw, the kings
   stop being sorted: each acts in the place it acted the turn before, not by the id of
   the tile it picked.

Its code is its own, not the departure library's (reference_engine/kingdomino/departures),
so that the oracles and blame are tested on departures they were not written from. Run it
as a real engine runs, behind the minimum capabilities with its own draws and no events:
`--engine bare:examples.engines.kingdomino.compounds.compound_rotated_start:ENGINE`.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULES = ("KD-ORDER-FIRST", "KD-SCORE-ZONES", "KD-ORDER")
PROFILE = "legend"
SCORED = "cfgwm"  # corn, forest, grass, wetland, mine: the lake forgotten


class Engine(Kingdomino):
    def first_orders(self, state: KdState) -> list[tuple[int, ...]]:
        n = len(state.kings)
        return [tuple((n + i - 1) % n + 1 for i in range(n))]  # the last seat first

    def score_grid(self, grid: str) -> int:
        # a union-find over the 81 cells, joining equal terrains across each edge
        parent = list(range(81))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i in range(81):
            t = grid[2 * i]
            if t not in SCORED:
                continue
            for j in (i + 1, i + 9):
                if j < 81 and (j != i + 1 or i % 9 != 8) and grid[2 * j] == t:
                    parent[root(j)] = root(i)
        size: dict[int, int] = {}
        crowns: dict[int, int] = {}
        for i in range(81):
            if grid[2 * i] in SCORED:
                r = root(i)
                size[r] = size.get(r, 0) + 1
                crowns[r] = crowns.get(r, 0) + int(grid[2 * i + 1])
        return sum(size[r] * crowns[r] for r in size)

    def _next_turn(self, state: KdState, events: list[Any]) -> KdState:
        after = super()._next_turn(state, events)
        if after.turn != state.turn and after.turn >= after.cfg.turns - 1 \
                and after.phase in ("deal", "play"):
            picked = {owner: tile for tile, owner in state.line if owner}
            kept = tuple((picked[p], p) for _, p in state.placing
                         if p in picked and not state.stopped[p - 1])
            if sorted(kept) == sorted(after.placing):  # the same kings, unsorted
                after = after._replace(placing=kept)
        return after


ENGINE = Engine

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-compound_rotated_start")
