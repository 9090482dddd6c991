"""Mutant: A 4-player game is set up with 3 seats. Breaks KD-PLAYERS."""

from __future__ import annotations

from dataclasses import replace

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdConfig
from gamecert.spec import Profile

RULE = "KD-PLAYERS"
PROFILE = "legend"


class Mutant(Kingdomino):
    """A 4-player game is set up with 3 seats."""

    def config(self, profile: Profile) -> KdConfig:
        cfg = super().config(profile)
        return replace(cfg, players=3) if cfg.players == 4 else cfg


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-three_seats")
