"""Mutant: A completed monastery scores 8 (its neighbours only), not 9. Breaks CARC-
MONASTERY-COMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig
from gamecert.reference_engine.carcassonne.engine import MONASTERY, Feat

RULE = "CARC-MONASTERY-COMPLETE"


class Mutant(Carcassonne):
    """A completed monastery scores 8 (its neighbours only), not 9."""

    def completed_points(self, cfg: CarcConfig, f: Feat) -> int:
        return 8 if f.kind == MONASTERY else super().completed_points(cfg, f)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-monastery_8")
