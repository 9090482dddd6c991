"""Mutant: Plays the second public tile list (tiles 13 and 37) whatever the profile says.
Breaks KD-TILES."""

from __future__ import annotations

from dataclasses import replace

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdConfig
from gamecert.reference_engine.kingdomino.tiles import tiles_for
from gamecert.spec import Profile

RULE = "KD-TILES"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Plays the second public tile list (tiles 13 and 37) whatever the profile says."""

    def config(self, profile: Profile) -> KdConfig:
        return replace(super().config(profile), tiles=tiles_for("fiddleatwork"))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-other_tile_list")
