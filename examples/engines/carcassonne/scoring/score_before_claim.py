"""Mutant: Features the tile completes score at the placement even when nobody holds them, so
they can no longer be claimed. Breaks CARC-SCORE-TIMING."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.scoring import ScoreBeforeClaim as Mutant

RULE = "CARC-SCORE-TIMING"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-score_before_claim")
