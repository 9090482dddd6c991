"""Mutant: A farmer may go on a field that, as joined, already holds farmers. Breaks
CARC-FARM-CLAIM (farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne
from gamecert.reference_engine.carcassonne.engine import Feat

RULE = "CARC-FARM-CLAIM"
PROFILE = "syncs-2025-farms"


class Mutant(Carcassonne):
    """A farmer may go on a field that, as joined, already holds farmers."""

    def field_free(self, f: Feat, player: int) -> bool:
        return True


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farm_claim_joined")
