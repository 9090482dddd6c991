"""Mutant: The ransom moves 2 points instead of 3. Breaks CARC-TOWER-RANSOM (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-TOWER-RANSOM"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """The ransom moves 2 points instead of 3."""

    def ransom_points(self, state: CarcState) -> tuple[int, int]:
        return state.cfg.ransom - 1, state.cfg.ransom - 1

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-ransom_pays_2")
