"""Season mutant: a bot freezes after 5 timeouts in a row, the shipped profiles' value,
whatever the season says (FLIT-FREEZE.consecutive_timeouts = 5). Under the season file
examples/seasons/flit-freeze-3.toml it breaks FLIT-FREEZE; under the shipped profiles it is
the reference."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.flit.engine import Flit, FlitState
from gamecert.spec import Profile
from gamecert.spec.profile_file import with_parameter

RULE = "FLIT-FREEZE"
SEASON = "flit-freeze-3.toml"


def _shipped(profile: Profile) -> Profile:
    return with_parameter(profile, RULE, "consecutive_timeouts", 5)


class SeasonFreeze5(Flit):
    def initial(self, profile: Profile, seed: int | None = None) -> FlitState:
        return super().initial(_shipped(profile), seed)

    def load(self, profile: Profile, observed: Any) -> FlitState:
        return super().load(_shipped(profile), observed)

    def adopt(self, profile: Profile, observed: Any) -> FlitState:
        return super().adopt(_shipped(profile), observed)


ENGINE = SeasonFreeze5

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-season-mutant-season_freeze_5")
