"""Mutant: the deck deals one tile kind (V, the commonest land tile) twice as often as its
copies left say. Breaks CARC-DECK-DRAW. Every single draw is still possible, so no one step
shows it: only the statistics of many draws do (follow mode, docs/capabilities.md). Not in
MUTANTS: with the `chance` capability its draws are the harness's, and its only visible
difference is its legal listing's probabilities; it is the statistical checks' mutant
(`STATISTICAL`)."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.contract import Outcome

RULE = "CARC-DECK-DRAW"
FAVOURED = "V"


class Mutant(Carcassonne):
    """Draws weigh the favoured kind double."""

    def chance(self, state: CarcState) -> list[Outcome[Any]]:
        outcomes = super().chance(state)
        favoured = state.cfg.t.ids.index(FAVOURED)
        weights = [o.probability * (2 if o.action[1] == favoured else 1) for o in outcomes]
        total = sum(weights)
        return [Outcome(o.action, w / total) for o, w in zip(outcomes, weights, strict=True)]


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-deck_biased")
