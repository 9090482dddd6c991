"""Mutant: The land deck is one tile (a D) short. Breaks CARC-TILES."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.spec import Profile

RULE = "CARC-TILES"


class Mutant(Carcassonne):
    """The land deck is one tile (a D) short."""

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        deck = list(state.deck)
        deck[state.cfg.t.index["D"]] -= 1
        return state._replace(deck=tuple(deck))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-tiles_short")
