"""Mutant: A completed town scores like an open one: 1 per tile and per banner. Breaks CARC-
TOWN-COMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.scoring import TownIncompleteRate as Mutant

RULE = "CARC-TOWN-COMPLETE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-town_incomplete_rate")
