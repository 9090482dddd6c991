"""Mutant: Banners of towns left open at the end are not counted. Breaks CARC-SCORE-
INCOMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig
from gamecert.reference_engine.carcassonne.engine import Feat

RULE = "CARC-SCORE-INCOMPLETE"


class Mutant(Carcassonne):
    """Banners of towns left open at the end are not counted."""

    def final_points(self, cfg: CarcConfig, f: Feat) -> int:
        return super().final_points(cfg, f._replace(banners=0))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-banners_ignored_at_end")
