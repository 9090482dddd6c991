"""Season mutant: the game seats 2 players, the shipped profiles' value, whatever the season
says (KD-PLAYERS.players = 2). Under the season files
examples/seasons/kingdomino-board-3p.toml and kingdomino-board-4p.toml it breaks KD-PLAYERS;
under the shipped profiles (the board-game start seats 2) it is the reference."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino.engine import KdState, Kingdomino
from gamecert.spec import Profile
from gamecert.spec.profile_file import with_parameter

RULE = "KD-PLAYERS"
SEASON = "kingdomino-board-3p.toml"  # and kingdomino-board-4p.toml


def _shipped(profile: Profile) -> Profile:
    return with_parameter(profile, RULE, "players", 2)


class SeasonTwoPlayers(Kingdomino):
    def initial(self, profile: Profile, seed: int | None = None) -> KdState:
        return super().initial(_shipped(profile), seed)

    def load(self, profile: Profile, observed: Any) -> KdState:
        return super().load(_shipped(profile), observed)

    def adopt(self, profile: Profile, observed: Any) -> KdState:
        return super().adopt(_shipped(profile), observed)


ENGINE = SeasonTwoPlayers

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-season-mutant-season_two_players")
