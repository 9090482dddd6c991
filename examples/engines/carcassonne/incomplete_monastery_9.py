"""Mutant: A monastery left open at the end scores 9, as if it were complete. Breaks CARC-
SCORE-INCOMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig
from gamecert.reference_engine.carcassonne.engine import MONASTERY, Feat

RULE = "CARC-SCORE-INCOMPLETE"


class Mutant(Carcassonne):
    """A monastery left open at the end scores 9, as if it were complete."""

    def final_points(self, cfg: CarcConfig, f: Feat) -> int:
        return 9 if f.kind == MONASTERY else super().final_points(cfg, f)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-incomplete_monastery_9")
