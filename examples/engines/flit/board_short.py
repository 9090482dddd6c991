"""Mutant: The board is one row short: 32 x 31. Breaks FLIT-BOARD-SIZE."""

from __future__ import annotations

import dataclasses

from gamecert.reference_engine.flit import Flit, FlitConfig
from gamecert.spec import Profile

RULE = "FLIT-BOARD-SIZE"


class Mutant(Flit):
    """The board is one row short: 32 x 31."""

    def config(self, profile: Profile) -> FlitConfig:
        return dataclasses.replace(FlitConfig.of(profile), height=31)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-board_short")
