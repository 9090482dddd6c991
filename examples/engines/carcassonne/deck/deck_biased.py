"""Mutant: the deck deals one tile kind (V, the commonest land tile) twice as often as its
copies left say. Breaks CARC-DECK-DRAW. Every single draw is still possible, so no one step
shows it: only the statistics of many draws do (follow mode, docs/capabilities.md). Not in
MUTANTS: with the `chance` capability its draws are the harness's, and its only visible
difference is its legal listing's probabilities; it is the statistical checks' mutant
(tests/capabilities/test_chance_stats.py, behind `minimal:`)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import DeckBiased as Mutant

RULE = "CARC-DECK-DRAW"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-deck_biased")
