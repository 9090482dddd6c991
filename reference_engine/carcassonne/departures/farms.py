"""Departure models: The farms stage (profile syncs-2025-farms).

Each class changes one rule decision of the reference engine (one hook or one piece of
logic), so a state the class gives and the reference does not names that rule
(`fuzz.step.blame`). The public mutants in examples/engines/carcassonne import them from here.
This module must not import the harness.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig, CarcState, rules
from gamecert.reference_engine.carcassonne.engine import FIELD, JSON, ROAD, Feat


class FarmersGoHome(Carcassonne):
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


class FieldCrossesRoad(Carcassonne):
    """On the tile just placed, the fields on the two sides of a road edge are one field."""

    def lay_tile(self, cfg: CarcConfig, board: dict[int, tuple[int, int]],
                 cells: dict[int, tuple[int, int]], owner: dict[int, int],
                 feats: dict[int, Feat], pos: int, k: int, rot: int) -> None:
        super().lay_tile(cfg, board, cells, owner, feats, pos, k, rot)
        rt = cfg.t.rot[k][rot]
        if not cfg.farms:
            return
        for s in range(4):
            a, b = rt.half_field[2 * s], rt.half_field[2 * s + 1]
            if rt.side_seg[s] >= 0 and rt.segs[rt.side_seg[s]].kind == ROAD and a >= 0 and b >= 0:
                first = len(rt.segs)
                fa, fb = owner[pos * 8 + first + a], owner[pos * 8 + first + b]
                if fa != fb:
                    self.join_features(owner, feats, fa, fb)


class FarmClaimJoined(Carcassonne):
    """A farmer may go on a field that, as joined, already holds farmers."""

    def field_free(self, f: Feat, player: int) -> bool:
        return True


class FarmIncompleteTowns(Carcassonne):
    """A farm scores every town it borders, completed or not."""

    def farm_points(self, cfg: CarcConfig, towns: list[Feat]) -> int:
        return cfg.farm_town_pts * len(towns)


class FarmTieOne(Carcassonne):
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
