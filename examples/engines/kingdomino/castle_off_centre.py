"""Mutant: Each castle stands on (3, 4), not on the centre (4, 4). Breaks KD-GRID."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState
from gamecert.spec import Profile

RULE = "KD-GRID"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Each castle stands on (3, 4), not on the centre (4, 4)."""

    def initial(self, profile: Profile, seed: int | None = None) -> KdState:
        state = super().initial(profile, seed)
        grid = "_0" * 39 + "*0" + "_0" * 41
        return state._replace(grids=(grid,) * len(state.grids))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-castle_off_centre")
