"""Mutant: Meeples stay on a completed feature after it is scored. Breaks CARC-MEEPLE-RETURN."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import MeeplesKept as Mutant

RULE = "CARC-MEEPLE-RETURN"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-meeples_kept")
