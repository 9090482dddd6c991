"""Mutant: A river edge may face a field edge. Breaks CARC-RIVER-MEETS-RIVER."""

from __future__ import annotations

from reference_engine.carcassonne import Carcassonne, CarcState
from reference_engine.carcassonne.engine import DELTA, RIVER_EDGE, RIVER_PHASE, unpack

RULE = "CARC-RIVER-MEETS-RIVER"


class Mutant(Carcassonne):
    """A river edge may face a field edge."""

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None:
        # the reference's checks, with river edges left out of the edge matching
        t = state.cfg.t
        if k not in state.hands[state.to_move - 1]:
            return f"tile {t.ids[k]} is not in player {state.to_move}'s hand"
        if rot not in (0, 1, 2, 3):
            return f"rotation {rot} is not 0-3"
        x, y = unpack(pos)
        if pos in state.board:
            return f"cell [{x}, {y}] already holds a tile"
        if pos not in state.cells:
            return f"cell [{x}, {y}] touches no placed tile"
        if state.phase == RIVER_PHASE and pos != state.river.open_pos:
            return "during the river phase the tile must continue the river"
        rt = t.rot[k][rot]
        for s in range(4):
            there = state.board.get(pos + DELTA[s])
            if there is None:
                continue
            theirs = t.rot[there[0]][there[1]].edges[(s + 2) % 4]
            if rt.edges[s] != theirs and {rt.edges[s], theirs} != {RIVER_EDGE, 0}:
                return "an edge does not match"  # (a river edge facing a field is let by)
        if state.phase == RIVER_PHASE:
            return self.river_problem(state, k, rot, pos)
        return None


ENGINE = Mutant

if __name__ == "__main__":
    from fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-river_meets_field")
