"""Season mutant: a neutral square 1 turn in 16, the shipped profiles' value, whatever the
season says (FLIT-NEUTRAL-ADD.hit_denominator = 16). Under the season file
examples/seasons/flit-neutral-8.toml it breaks FLIT-NEUTRAL-ADD; under the shipped profiles
it is the reference."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.flit.engine import Flit, FlitState
from gamecert.spec import Profile
from gamecert.spec.profile_file import with_parameter

RULE = "FLIT-NEUTRAL-ADD"
SEASON = "flit-neutral-8.toml"


def _shipped(profile: Profile) -> Profile:
    return with_parameter(profile, RULE, "hit_denominator", 16)


class SeasonNeutral16(Flit):
    def initial(self, profile: Profile, seed: int | None = None) -> FlitState:
        return super().initial(_shipped(profile), seed)

    def load(self, profile: Profile, observed: Any) -> FlitState:
        return super().load(_shipped(profile), observed)

    def adopt(self, profile: Profile, observed: Any) -> FlitState:
        return super().adopt(_shipped(profile), observed)


ENGINE = SeasonNeutral16

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-season-mutant-season_neutral_16")
