"""Mutant: The game goes on after a player reaches 50 points. Breaks CARC-END-POINTS."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import NoStopAt50 as Mutant

RULE = "CARC-END-POINTS"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-no_stop_at_50")
