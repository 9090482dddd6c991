"""Mutant: The Tower tiles never reach the deck. Breaks CARC-TOWER-TILES (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.spec import Profile

RULE = "CARC-TOWER-TILES"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """The Tower tiles never reach the deck."""

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        t = state.cfg.t
        deck = tuple(0 if t.rot[k][0].tower else c for k, c in enumerate(state.deck))
        return state._replace(deck=deck)

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-tower_tiles_missing")
