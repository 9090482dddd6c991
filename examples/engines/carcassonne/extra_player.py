"""Mutant: A new game seats one player more than the profile says. Breaks CARC-PLAYERS."""

from __future__ import annotations

import dataclasses

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.spec import Profile

RULE = "CARC-PLAYERS"


class Mutant(Carcassonne):
    """A new game seats one player more than the profile says."""

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        n = state.cfg.players + 1
        cfg = dataclasses.replace(state.cfg, players=n)
        return state._replace(cfg=cfg, supply=(cfg.meeples,) * n, scores=(0,) * n,
                              hands=((),) * n)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-extra_player")
