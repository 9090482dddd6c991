"""Season mutant: a completed town scores 2 points a tile, the shipped profiles' value,
whatever the season says (CARC-TOWN-COMPLETE.points_per_tile = 2). Under the season file
examples/seasons/carcassonne-town-3.toml it breaks CARC-TOWN-COMPLETE; under the shipped
profiles it is the reference."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne.engine import Carcassonne, CarcState
from gamecert.spec import Profile
from gamecert.spec.profile_file import with_parameter

RULE = "CARC-TOWN-COMPLETE"
SEASON = "carcassonne-town-3.toml"


def _shipped(profile: Profile) -> Profile:
    return with_parameter(profile, RULE, "points_per_tile", 2)


class SeasonTown2(Carcassonne):
    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        return super().initial(_shipped(profile), seed)

    def load(self, profile: Profile, observed: Any) -> CarcState:
        return super().load(_shipped(profile), observed)

    def adopt(self, profile: Profile, observed: Any) -> CarcState:
        return super().adopt(_shipped(profile), observed)


ENGINE = SeasonTown2

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-season-mutant-season_town_2")
