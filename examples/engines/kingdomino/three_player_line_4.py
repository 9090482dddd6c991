"""Mutant: With 3 players each line has 4 tiles (48 in play), as with 4. Breaks KD-TILES-IN-PLAY."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdConfig

RULE = "KD-TILES-IN-PLAY"
PROFILE = "legend-3p"


class Mutant(Kingdomino):
    """With 3 players each line has 4 tiles (48 in play), as with 4."""

    def line_size(self, cfg: KdConfig) -> int:
        return 4 if cfg.players == 3 else cfg.line


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-three_player_line_4")
