"""Mutant: With 2 players each player has one king. Breaks KD-KINGS."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdConfig

RULE = "KD-KINGS"
PROFILE = "legend-2p"


class Mutant(Kingdomino):
    """With 2 players each player has one king."""

    def kings_per_player(self, cfg: KdConfig) -> int:
        return 1


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-one_king_2p")
