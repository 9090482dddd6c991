"""Compound mutant: three departures at once, shaped like a real engine's.

1. CARC-RIVER-DRAW, on every game's first steps: once only the lake is left in the river
   pile, the engine lays it itself at the end of the river, in the turn of the player who
   placed the last other river tile; no turn draws and places the lake.
2. CARC-SCORE-INCOMPLETE, at the end: the banners of a town left open count 3 points each
   (the profile says 1).
3. CARC-TOWN-COMPLETE, later in the game: a completed town of more than two tiles is paid
   for its tiles only, without its banner bonus.

Written on its own (not from the departure library): it shows that the lockstep goes on
past a systematic river-phase departure and that the land, scoring, meeple, farm and tower
rules are judged past it. Run it as real engines are run, behind the minimum capabilities
and with no events:
`--engine bare:examples.engines.carcassonne.compounds.compound_lake_banners:ENGINE`.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig, CarcState
from gamecert.reference_engine.carcassonne.engine import CITY, RIVER_PHASE, Feat, river_step

RULES = ("CARC-RIVER-DRAW", "CARC-SCORE-INCOMPLETE", "CARC-TOWN-COMPLETE")


class LakeBanners(Carcassonne):
    """The lake laid inside a turn; open towns' banners at 3; big towns without banners."""

    def _place(self, state: CarcState, k: Any, pos: Any, rot: Any) -> tuple[CarcState, list[Any]]:
        after, events = super()._place(state, k, pos, rot)
        t = after.cfg.t
        left = [kind for kind, count in enumerate(after.river_pile) if count]
        end = after.river.open_pos
        if after.phase != RIVER_PHASE or left != [t.lake] or end < 0 or end in after.board:
            return after, events
        # the engine finishes the river itself: the lake goes where the river ends
        for rotation in range(4):
            if t.rot[t.lake][rotation].code & after.cells[end][0] != after.cells[end][1]:
                continue
            board, cells = dict(after.board), dict(after.cells)
            owner, feats = dict(after.owner), dict(after.feats)
            self.lay_tile(after.cfg, board, cells, owner, feats, end, t.lake, rotation)
            pile = list(after.river_pile)
            pile[t.lake] -= 1
            after = after._replace(board=board, cells=cells, owner=owner, feats=feats,
                                   river=river_step(t, after.river, t.lake, rotation, end)[0],
                                   river_pile=tuple(pile))
            break
        return after, events

    def final_points(self, cfg: CarcConfig, f: Feat) -> int:
        if f.kind == CITY:
            return len(f.tiles) * cfg.inc_town + 3 * f.banners
        return super().final_points(cfg, f)

    def completed_points(self, cfg: CarcConfig, f: Feat) -> int:
        if f.kind == CITY and len(f.tiles) > 2:
            return len(f.tiles) * cfg.town_pts
        return super().completed_points(cfg, f)


ENGINE = LakeBanners

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-compound-lake_banners")
