"""Mutant: A capped tower still takes floors. Breaks CARC-TOWER-ACTION (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-TOWER-ACTION"
PROFILE = "syncs-2025-tower"


class Mutant(Carcassonne):
    """A capped tower still takes floors."""

    def tower_sites(self, state: CarcState) -> list[int]:
        t = state.cfg.t
        return sorted(pos for pos, (k, r) in state.board.items() if t.rot[k][r].tower)

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-floor_on_capped")
