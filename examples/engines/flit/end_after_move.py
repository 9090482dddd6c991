"""Mutant: End conditions are checked right after the move. Breaks FLIT-END-TIMING."""

from __future__ import annotations

import dataclasses

from gamecert.reference_engine.flit import Flit, FlitConfig
from gamecert.spec import Profile

RULE = "FLIT-END-TIMING"


class Mutant(Flit):
    """End conditions are checked right after the move."""

    def config(self, profile: Profile) -> FlitConfig:
        return dataclasses.replace(FlitConfig.of(profile), end_after_move=True)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-end_after_move")
