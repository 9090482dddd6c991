"""Mutant: A player's farmers go back to the supply at the start of that player's next turn.
Breaks CARC-FARM-STAYS (farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import FIELD, JSON

RULE = "CARC-FARM-STAYS"
PROFILE = "syncs-2025-farms"


class Mutant(Carcassonne):
    """A player's farmers go back to the supply at the start of that player's next turn."""

    def _start_turn(self, state: CarcState, player: int, events: list[JSON]) -> CarcState:
        home = [node for node, p in state.meeples.items()
                if p == player and state.feats[state.owner[node]].kind == FIELD]
        if home:
            feats, meeples = dict(state.feats), dict(state.meeples)
            for node in home:
                fid = state.owner[node]
                f = feats[fid]
                counts = list(f.meeples)
                counts[player - 1] -= 1
                feats[fid] = f._replace(meeples=tuple(counts))
                del meeples[node]
            supply = list(state.supply)
            supply[player - 1] += len(home)
            state = state._replace(feats=feats, meeples=meeples, supply=tuple(supply))
        return super()._start_turn(state, player, events)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-farmers_go_home")
