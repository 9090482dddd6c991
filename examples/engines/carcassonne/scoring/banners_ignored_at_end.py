"""Mutant: Banners of towns left open at the end are not counted. Breaks CARC-SCORE-
INCOMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.scoring import BannersIgnoredAtEnd as Mutant

RULE = "CARC-SCORE-INCOMPLETE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-banners_ignored_at_end")
