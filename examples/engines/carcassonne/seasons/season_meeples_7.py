"""Season mutant: every player has 7 meeples, the shipped profiles' value, whatever the season
says (CARC-MEEPLE-SUPPLY.meeples = 7). Under the season file examples/seasons/carcassonne-
duel-60.toml it breaks CARC-MEEPLE-SUPPLY; under the shipped profiles it is the reference."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne.engine import Carcassonne, CarcState
from gamecert.spec import Profile
from gamecert.spec.profile_file import with_parameter

RULE = "CARC-MEEPLE-SUPPLY"
SEASON = "carcassonne-duel-60.toml"


def _shipped(profile: Profile) -> Profile:
    return with_parameter(profile, RULE, "meeples", 7)


class SeasonMeeples7(Carcassonne):
    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        return super().initial(_shipped(profile), seed)

    def load(self, profile: Profile, observed: Any) -> CarcState:
        return super().load(_shipped(profile), observed)

    def adopt(self, profile: Profile, observed: Any) -> CarcState:
        return super().adopt(_shipped(profile), observed)


ENGINE = SeasonMeeples7

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-season-mutant-season_meeples_7")
