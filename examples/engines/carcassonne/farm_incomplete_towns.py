"""Mutant: A farm scores every town it borders, completed or not. Breaks CARC-FARM-SCORE
(farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig
from gamecert.reference_engine.carcassonne.engine import Feat

RULE = "CARC-FARM-SCORE"
PROFILE = "syncs-2025-farms"


class Mutant(Carcassonne):
    """A farm scores every town it borders, completed or not."""

    def farm_points(self, cfg: CarcConfig, towns: list[Feat]) -> int:
        return cfg.farm_town_pts * len(towns)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farm_incomplete_towns")
