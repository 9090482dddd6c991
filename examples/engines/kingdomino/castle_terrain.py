"""Mutant: The castle counts as a square of every terrain: it joins the zones around it.
Breaks KD-SCORE-ZONES."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import N

RULE = "KD-SCORE-ZONES"
PROFILE = "legend"


class Mutant(Kingdomino):
    """The castle counts as a square of every terrain: it joins the zones around it."""

    def zones(self, grid: str) -> list[tuple[str, int, int]]:
        out = []
        for t in "cfglwm":
            seen: set[int] = set()
            for i in range(N * N):
                if grid[2 * i] != t or i in seen:
                    continue
                stack, size, crowns = [i], 0, 0
                seen.add(i)
                while stack:
                    c = stack.pop()
                    size += 1
                    crowns += ord(grid[2 * c + 1]) - 48
                    for n in self.zone_neighbours(c):
                        if n not in seen and grid[2 * n] in (t, "*"):
                            seen.add(n)
                            stack.append(n)
                out.append((t, size, crowns))
        return out


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-castle_terrain")
