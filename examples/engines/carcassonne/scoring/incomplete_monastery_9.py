"""Mutant: A monastery left open at the end scores 9, as if it were complete. Breaks CARC-
SCORE-INCOMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.scoring import IncompleteMonastery9 as Mutant

RULE = "CARC-SCORE-INCOMPLETE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-incomplete_monastery_9")
