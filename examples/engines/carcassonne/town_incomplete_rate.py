"""Mutant: A completed town scores like an open one: 1 per tile and per banner. Breaks CARC-
TOWN-COMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig
from gamecert.reference_engine.carcassonne.engine import CITY, Feat

RULE = "CARC-TOWN-COMPLETE"


class Mutant(Carcassonne):
    """A completed town scores like an open one: 1 per tile and per banner."""

    def completed_points(self, cfg: CarcConfig, f: Feat) -> int:
        if f.kind == CITY:
            return len(f.tiles) * cfg.inc_town + f.banners * cfg.inc_banner
        return super().completed_points(cfg, f)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-town_incomplete_rate")
