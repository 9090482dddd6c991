"""Season mutant: a botlet costs 1 energy, the shipped profiles' value, whatever the season
says (BOTWARS-SPAWN.cost = 1). Under the season file examples/seasons/botwars-spawn-
cost-2.toml it breaks BOTWARS-SPAWN; under the shipped profiles it is the reference."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsState
from gamecert.spec import Profile
from gamecert.spec.profile_file import with_parameter

RULE = "BOTWARS-SPAWN"
SEASON = "botwars-spawn-cost-2.toml"


def _shipped(profile: Profile) -> Profile:
    return with_parameter(profile, RULE, "cost", 1)


class SeasonSpawnCost1(BotWars):
    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        return super().initial(_shipped(profile), seed)

    def load(self, profile: Profile, observed: Any) -> BotWarsState:
        return super().load(_shipped(profile), observed)

    def adopt(self, profile: Profile, observed: Any) -> BotWarsState:
        return super().adopt(_shipped(profile), observed)


ENGINE = SeasonSpawnCost1

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="botwars-season-mutant-season_spawn_cost_1")
