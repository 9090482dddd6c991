"""Mutant: A feature may be claimed when only other players' meeples are on it. Breaks CARC-
CLAIM-UNCLAIMED."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne
from gamecert.reference_engine.carcassonne.engine import Feat

RULE = "CARC-CLAIM-UNCLAIMED"


class Mutant(Carcassonne):
    """A feature may be claimed when only other players' meeples are on it."""

    def feature_free(self, f: Feat, player: int) -> bool:
        return f.meeples[player - 1] == 0


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-claim_joined_opponent")
