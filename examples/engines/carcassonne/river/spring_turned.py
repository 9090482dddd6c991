"""Mutant: The spring is laid turned half round (its river leaves through the bottom edge).
Breaks CARC-RIVER-SPRING."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.river import SpringTurned as Mutant

RULE = "CARC-RIVER-SPRING"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-spring_turned")
