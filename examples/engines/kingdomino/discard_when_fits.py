"""Mutant: A tile may be discarded even when it fits somewhere. Breaks KD-DISCARD."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULE = "KD-DISCARD"
PROFILE = "legend"


class Mutant(Kingdomino):
    """A tile may be discarded even when it fits somewhere."""

    def can_discard(self, state: KdState, grid: str, tile: int) -> bool:
        return True


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-discard_when_fits")
