"""Mutant: A player with no meeple left may still claim. Breaks CARC-MEEPLE-SUPPLY."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-MEEPLE-SUPPLY"


class Mutant(Carcassonne):
    """A player with no meeple left may still claim."""

    def has_meeple(self, state: CarcState, player: int) -> bool:
        return True


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-claim_without_meeple")
