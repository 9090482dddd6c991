"""Mutant: Above Wood too an invalid PUT discards the tile (the Wood rule).
Breaks KD-PUT-INVALID."""

from __future__ import annotations

from dataclasses import replace

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdConfig
from gamecert.spec import Profile

RULE = "KD-PUT-INVALID"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Above Wood too an invalid PUT discards the tile (the Wood rule)."""

    def config(self, profile: Profile) -> KdConfig:
        return replace(super().config(profile), put_discards=True)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-invalid_put_discards")
