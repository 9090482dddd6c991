"""Mutant: A PUT over squares of another tile (not the castle) is accepted: the check a PUT
goes through forgets overlap (the engine's own listing and discard test still have it).
Breaks KD-PLACE-NO-OVERLAP."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState, N, Put

RULE = "KD-PLACE-NO-OVERLAP"
PROFILE = "legend"


class Mutant(Kingdomino):
    """A PUT over squares of another tile (not the castle) is accepted."""

    def __init__(self) -> None:
        super().__init__()
        self._fast = True  # the listing and the discard test keep the reference's rules

    def placement_error(self, state: KdState, grid: str, tile: int, put: Put) -> str | None:
        x, y, r = put
        if type(r) is int and 0 <= r < 4:
            x2, y2 = self.second_cell(x, y, r)
            cells = list(grid)
            for cx, cy in ((x, y), (x2, y2)):
                i = 2 * (cy * N + cx)
                if 0 <= cx < N and 0 <= cy < N and cells[i] != "*":
                    cells[i:i + 2] = "_0"
            grid = "".join(cells)
        return super().placement_error(state, grid, tile, put)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-overlap_allowed")
