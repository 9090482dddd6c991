"""Mutant: Features the tile completes score at the placement even when nobody holds them, so
they can no longer be claimed. Breaks CARC-SCORE-TIMING."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne
from gamecert.reference_engine.carcassonne.engine import Feat

RULE = "CARC-SCORE-TIMING"


class Mutant(Carcassonne):
    """Features the tile completes score at the placement even when nobody holds them, so they
    can no longer be claimed."""

    def scored_at_placement(self, f: Feat, on_tile: bool) -> bool:
        return True


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-score_before_claim")
