"""Mutant: Crowns are counted per square, not multiplied by their zone's size.
Breaks KD-SCORE-ZONES."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino

RULE = "KD-SCORE-ZONES"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Crowns are counted per square, not multiplied by their zone's size."""

    def score_grid(self, grid: str) -> int:
        return sum(crowns for _, _, crowns in self.zones(grid))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-crowns_per_tile")
