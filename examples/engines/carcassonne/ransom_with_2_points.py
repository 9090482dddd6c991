"""Mutant: A player with 2 points may pay the ransom (and go below zero). Breaks CARC-TOWER-RANSOM
(tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-TOWER-RANSOM"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """A player with 2 points may pay the ransom (and go below zero)."""

    def ransom_allowed(self, state: CarcState, payer: int, captor: int) -> str | None:
        if state.scores[payer - 1] == state.cfg.ransom - 1:
            cut = list(state.scores)
            cut[payer - 1] += 1  # judged as if it had the full ransom
            return super().ransom_allowed(state._replace(scores=tuple(cut)), payer, captor)
        return super().ransom_allowed(state, payer, captor)

    def ransom_points(self, state: CarcState) -> tuple[int, int]:
        paid = min(state.cfg.ransom, state.scores[state.to_move - 1])
        return paid, paid

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-ransom_with_2_points")
