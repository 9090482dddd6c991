"""Mutant: A road that closes into a loop is never completed. Breaks CARC-ROAD-COMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.scoring import RoadLoopOpen as Mutant

RULE = "CARC-ROAD-COMPLETE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-road_loop_open")
