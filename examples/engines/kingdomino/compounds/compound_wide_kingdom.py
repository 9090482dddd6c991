"""Compound mutant: three departures at once, as an engine nobody here wrote might have them.

1. KD-PLACE-EXTENT (from the second turn of every game): no 5 x 5 limit at all: its own
   placement check knows the grid, overlap and connection, and nothing of the extent.
2. KD-TIE-BREAK (the final result): the territory it reports, the tie-break's measure,
   counts the castle's square too (one more than the tile squares placed), so the result's
   territory differs even where the final scores agree.
3. KD-ORDER (the last turn): the kings of the last turn act in seat order, not by the ids
   of the tiles they picked.

Its code is its own, not the departure library's (reference_engine/kingdomino/departures).
Run it as a real engine runs, behind the minimum capabilities with its own draws and no
events: `--engine bare:examples.engines.kingdomino.compounds.compound_wide_kingdom:ENGINE`.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdConfig, KdState, Put

RULES = ("KD-PLACE-EXTENT", "KD-TIE-BREAK", "KD-ORDER")
PROFILE = "legend-3p"
STEPS = {0: (1, 0), 1: (0, 1), 2: (-1, 0), 3: (0, -1)}


class Engine(Kingdomino):
    def placement_error(self, state: KdState, grid: str, tile: int, put: Put) -> str | None:
        x, y, r = put
        if r not in STEPS:
            return "bad rotation"
        cells = [(x, y), (x + STEPS[r][0], y + STEPS[r][1])]
        if any(not (0 <= cx < 9 and 0 <= cy < 9) for cx, cy in cells):
            return "off the board"
        if any(grid[2 * (9 * cy + cx)] != "_" for cx, cy in cells):
            return "square taken"
        for (cx, cy), square in zip(cells, state.cfg.tiles[tile], strict=True):
            for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                if 0 <= nx < 9 and 0 <= ny < 9 and grid[2 * (9 * ny + nx)] in ("*", square[0]):
                    return None
        return "not connected"

    def territory(self, cfg: KdConfig, grid: str) -> int:
        return sum(1 for i in range(81) if grid[2 * i] != "_")  # the castle counted in

    def _next_turn(self, state: KdState, events: list[Any]) -> KdState:
        after = super()._next_turn(state, events)
        if after.turn == after.cfg.turns and after.phase == "play" and after.turn != state.turn:
            placing = tuple(sorted(after.placing, key=lambda k: k[1]))  # by seat
            after = self._skip_stopped(after._replace(placing=placing, nxt=0), 0, [])
        return after


ENGINE = Engine

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-compound_wide_kingdom")
