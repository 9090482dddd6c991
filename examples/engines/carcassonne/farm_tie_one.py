"""Mutant: When players tie for the most farmers on a field, only the lowest player id scores.
Breaks CARC-FARM-MAJORITY (farms stage)."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne

RULE = "CARC-FARM-MAJORITY"
PROFILE = "syncs-2025-farms"


class Mutant(Carcassonne):
    """When players tie for the most farmers on a field, only the lowest player id scores."""

    def farm_award(self, counts: Any, points: Any) -> list[Any]:
        out = super().farm_award(counts, points)
        first = next((i for i, a in enumerate(out) if a), None)
        return [a if i == first else 0 for i, a in enumerate(out)]


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farm_tie_one")
