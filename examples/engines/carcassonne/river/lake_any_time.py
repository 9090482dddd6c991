"""Mutant: The lake can be drawn while other river tiles are left. Breaks CARC-RIVER-LAKE-
ENDS."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.river import LakeAnyTime as Mutant

RULE = "CARC-RIVER-LAKE-ENDS"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-lake_any_time")
