"""Mutant: The game goes on after a player reaches 50 points. Breaks CARC-END-POINTS."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-END-POINTS"


class Mutant(Carcassonne):
    """The game goes on after a player reaches 50 points."""

    def _limit_reached(self, state: CarcState) -> bool:
        return False


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-no_stop_at_50")
