"""Mutant: Squares of one terrain that touch diagonally join one zone. Breaks KD-SCORE-ZONES."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import N

RULE = "KD-SCORE-ZONES"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Squares of one terrain that touch diagonally join one zone."""

    def zone_neighbours(self, i: int) -> tuple[int, ...]:
        x, y = i % N, i // N
        return tuple((y + dy) * N + x + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                     if (dx or dy) and 0 <= x + dx < N and 0 <= y + dy < N)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-diagonal_zones")
