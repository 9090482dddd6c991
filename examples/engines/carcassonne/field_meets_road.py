"""Mutant: Only the new tile's road and town edges are matched: its field edges may face a
road or a town. Breaks CARC-PLACE-MATCH."""

from __future__ import annotations

from reference_engine.carcassonne import Carcassonne, CarcState
from reference_engine.carcassonne.engine import DELTA, LAND_PHASE, RIVER_EDGE

RULE = "CARC-PLACE-MATCH"


class Mutant(Carcassonne):
    """Only the new tile's road and town edges are matched: its field edges may face a road or
    a town."""

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None:
        why = super().placement_problem(state, k, pos, rot)
        if why is None or state.phase != LAND_PHASE or "CARC-PLACE-MATCH" not in why:
            return why
        t = state.cfg.t
        rt = t.rot[k][rot]
        for s in range(4):
            there = state.board.get(pos + DELTA[s])
            if there is None:
                continue
            theirs = t.rot[there[0]][there[1]].edges[(s + 2) % 4]
            if rt.edges[s] != theirs and (rt.edges[s] != 0 or theirs == RIVER_EDGE):
                return why  # a road or town edge of the new tile (0 is a field edge)
        return None


ENGINE = Mutant

if __name__ == "__main__":
    from fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-field_meets_road")
