"""Mutant: The spring is laid turned half round (its river leaves through the bottom edge).
Breaks CARC-RIVER-SPRING."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import DELTA, STRAIGHT, Feat, River, lay, pack
from gamecert.spec import Profile

RULE = "CARC-RIVER-SPRING"


class Mutant(Carcassonne):
    """The spring is laid turned half round (its river leaves through the bottom edge)."""

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        t, n = state.cfg.t, state.cfg.players
        board: dict[int, tuple[int, int]] = {}
        cells: dict[int, tuple[int, int]] = {}
        owner: dict[int, int] = {}
        feats: dict[int, Feat] = {}
        origin = pack(0, 0)
        lay(t, board, cells, owner, feats, origin, t.spring, 2, n)
        flow = t.rot[t.spring][2].river[0]
        return state._replace(board=board, cells=cells, owner=owner, feats=feats,
                              river=River(origin + DELTA[flow], flow, STRAIGHT, STRAIGHT))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-spring_turned")
