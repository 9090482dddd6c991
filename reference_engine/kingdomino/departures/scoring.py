"""One-rule departures of Kingdomino's scoring rules (KD-SCORE-ZONES, KD-TIE-BREAK): each a
small subclass of the reference engine that overrides one hook.

Models for blame and the classes of the public mutants; nothing else belongs here.
"""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.engine import Kingdomino
from gamecert.reference_engine.kingdomino.state import N


class CrownsPerSquare(Kingdomino):
    """KD-SCORE-ZONES: crowns are counted per square, not multiplied by their zone's size."""

    def score_grid(self, grid: str) -> int:
        return sum(crowns for _, _, crowns in self.zones(grid))


class DiagonalZones(Kingdomino):
    """KD-SCORE-ZONES: squares of one terrain that touch diagonally join one zone."""

    def zone_neighbours(self, i: int) -> tuple[int, ...]:
        x, y = i % N, i // N
        return tuple((y + dy) * N + x + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                     if (dx or dy) and 0 <= x + dx < N and 0 <= y + dy < N)


class CastleJoinsZones(Kingdomino):
    """KD-SCORE-ZONES: the castle counts as a square of every terrain: it joins the zones
    around it."""

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


class TieBreakCrownsFirst(Kingdomino):
    """KD-TIE-BREAK: ties are broken by crowns first, then by territory."""

    def tie_break(self, scores: list[int], territory: list[int], crowns: list[int]
                  ) -> list[int]:
        return super().tie_break(scores, crowns, territory)


class NoTiePoints(Kingdomino):
    """KD-TIE-BREAK: no tie-break points: the final scores are the zone scores, and players
    tied on them share the win."""

    def tie_break(self, scores: list[int], territory: list[int], crowns: list[int]
                  ) -> list[int]:
        return list(scores)
