"""Mutant (a cascade pattern: an engine that starts from another position): a new game
starts with no botlet on the field and the whole initial energy, where the `original`
profile puts each bot's first botlet on its spawn point at the start. Breaks
BOTWARS-FIRST-BOTLETS, and only it: the moves of the first turn, judged on the reference's
field, must not be charged too."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import EMPTY, P1, BotWars, BotWarsState
from gamecert.spec import Profile

RULE = "BOTWARS-FIRST-BOTLETS"
PROFILE = "original"


class StartWithoutBotlets(BotWars):
    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        state = super().initial(profile, seed)
        cfg = state.cfg
        energy = cfg.initial_energy
        return BotWarsState(cfg, bytes(EMPTY for _ in range(cfg.size)), P1, 0,
                            (energy, energy), (False, False), (False, False), (), 0, None)


ENGINE = StartWithoutBotlets

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
