"""Mutant: The territory may span 6 x 6 squares. Breaks KD-PLACE-EXTENT."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdConfig

RULE = "KD-PLACE-EXTENT"
PROFILE = "legend"


class Mutant(Kingdomino):
    """The territory may span 6 x 6 squares."""

    def extent_ok(self, cfg: KdConfig, grid: str, cells: Any) -> bool:
        return super().extent_ok(replace(cfg, extent=cfg.extent + 1), grid, cells)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-extent_6x6")
