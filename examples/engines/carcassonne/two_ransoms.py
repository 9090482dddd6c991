"""Mutant: A player may pay a ransom twice in one turn. Breaks CARC-TOWER-RANSOM (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-TOWER-RANSOM"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """A player may pay a ransom twice in one turn."""

    def ransom_allowed(self, state: CarcState, payer: int, captor: int) -> str | None:
        return super().ransom_allowed(state._replace(ransomed=False), payer, captor)

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-two_ransoms")
