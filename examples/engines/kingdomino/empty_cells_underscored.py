"""Mutant: Grids print an empty cell as '__' instead of '_0'. Breaks KD-PROTO-INPUT."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState
from gamecert.spec import Profile

RULE = "KD-PROTO-INPUT"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Grids print an empty cell as '__' instead of '_0'."""

    def observe(self, state: KdState) -> dict[str, Any]:
        out = super().observe(state)
        out["grids"] = [[row.replace("_0", "__") for row in g] for g in out["grids"]]
        return out

    def load(self, profile: Profile, observed: Any) -> KdState:
        if isinstance(observed, dict) and isinstance(observed.get("grids"), list):
            observed = {**observed, "grids": [[r.replace("__", "_0") for r in g]
                                              for g in observed["grids"]]}
        return super().load(profile, observed)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-empty_cells_underscored")
