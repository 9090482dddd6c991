"""Mutant: When players tie for the most meeples on a feature, only the lowest player id
scores. Breaks CARC-SCORE-MAJORITY."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.scoring import TieLowestId as Mutant

RULE = "CARC-SCORE-MAJORITY"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-tie_lowest_id")
