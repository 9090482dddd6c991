"""Mutant: When players tie for the most farmers on a field, only the lowest player id scores.
Breaks CARC-FARM-MAJORITY (farms stage)."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, rules

RULE = "CARC-FARM-MAJORITY"
PROFILE = "syncs-2025-farms"


class Mutant(Carcassonne):
    """When players tie for the most farmers on a field, only the lowest player id scores."""

    def farm_award(self, counts: Any, points: Any, max2: rules.Max2 = max,
                   ite: rules.Ite = rules.py_ite) -> list[Any]:
        # operators only, like the reference, so `gamecert prove` can run it on z3 terms
        top = rules.top_count(counts, max2)
        out, taken = [], False
        for c in counts:
            out.append(ite(c >= top, ite(c > 0, ite(taken, 0, points), 0), 0))
            taken = ite(c >= top, ite(c > 0, True, taken), taken)
        return out


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farm_tie_one")
