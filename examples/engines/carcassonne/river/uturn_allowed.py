"""Mutant: A river tile may turn the same way as the one before it (a U-turn). Breaks CARC-
RIVER-NO-UTURN."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.river import UturnAllowed as Mutant

RULE = "CARC-RIVER-NO-UTURN"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-uturn_allowed")
