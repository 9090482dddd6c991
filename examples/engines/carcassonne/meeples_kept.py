"""Mutant: Meeples stay on a completed feature after it is scored. Breaks CARC-MEEPLE-RETURN."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import COMPLETE_RULE

RULE = "CARC-MEEPLE-RETURN"


class Mutant(Carcassonne):
    """Meeples stay on a completed feature after it is scored."""

    def _score(self, state: CarcState, fids: list[int], events: list[Any]) -> CarcState:
        # the reference's _score without giving the meeples back
        if not fids:
            return state
        cfg = state.cfg
        scores = list(state.scores)
        for fid in fids:
            f = state.feats[fid]
            value = self.completed_points(cfg, f)
            awards = self.award_points(f.meeples, value)
            events.append(self._feature_event(state, f, "feature-completed",
                                              COMPLETE_RULE[f.kind], value, awards))
            for i, a in enumerate(awards):
                scores[i] += a
        return state._replace(scores=tuple(scores))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-meeples_kept")
