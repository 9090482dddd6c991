"""Season mutant: a kingdom spans at most 5 x 5 squares, the shipped profiles' value, whatever
the season says (KD-PLACE-EXTENT.size = 5). It breaks KD-PLACE-EXTENT both ways: under
examples/seasons/kingdomino-4x4.toml it accepts placements too wide, under
kingdomino-7x7.toml it refuses legal ones; under the shipped profiles it is the reference."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino.engine import KdState, Kingdomino
from gamecert.spec import Profile
from gamecert.spec.profile_file import with_parameter

RULE = "KD-PLACE-EXTENT"
SEASON = "kingdomino-4x4.toml"  # and kingdomino-7x7.toml


def _shipped(profile: Profile) -> Profile:
    return with_parameter(profile, RULE, "size", 5)


class SeasonExtent5(Kingdomino):
    def initial(self, profile: Profile, seed: int | None = None) -> KdState:
        return super().initial(_shipped(profile), seed)

    def load(self, profile: Profile, observed: Any) -> KdState:
        return super().load(_shipped(profile), observed)

    def adopt(self, profile: Profile, observed: Any) -> KdState:
        return super().adopt(_shipped(profile), observed)


ENGINE = SeasonExtent5

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-season-mutant-season_extent_5")
