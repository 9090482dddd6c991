"""Season mutant: the board is 32 columns wide, the shipped profiles' value, whatever the
season says (FLIT-BOARD-SIZE.width = 32). Under the season file examples/seasons/flit-
board-24.toml it breaks FLIT-BOARD-SIZE; under the shipped profiles it is the reference."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.flit.engine import Flit, FlitState
from gamecert.spec import Profile
from gamecert.spec.profile_file import with_parameter

RULE = "FLIT-BOARD-SIZE"
SEASON = "flit-board-24.toml"


def _shipped(profile: Profile) -> Profile:
    return with_parameter(profile, RULE, "width", 32)


class SeasonBoard32(Flit):
    def initial(self, profile: Profile, seed: int | None = None) -> FlitState:
        return super().initial(_shipped(profile), seed)

    def load(self, profile: Profile, observed: Any) -> FlitState:
        return super().load(_shipped(profile), observed)

    def adopt(self, profile: Profile, observed: Any) -> FlitState:
        return super().adopt(_shipped(profile), observed)


ENGINE = SeasonBoard32

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-season-mutant-season_board_32")
