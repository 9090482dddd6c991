"""Mutant: A completed monastery scores 8 (its neighbours only), not 9. Breaks CARC-
MONASTERY-COMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.scoring import Monastery8 as Mutant

RULE = "CARC-MONASTERY-COMPLETE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-monastery_8")
