"""Mutant: A badly formatted output or an invalid PICK only skips the turn; the player plays on.
Breaks KD-STOP."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.protocol import StopSkipsTurn as Mutant

RULE = "KD-STOP"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-stop_not_recorded")
