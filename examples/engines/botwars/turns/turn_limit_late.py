"""Mutant: the game stops only once turnsElapsed exceeds the limit (201 turns). Breaks
BOTWARS-END-TURNLIMIT."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import TurnLimitLate

RULE = "BOTWARS-END-TURNLIMIT"

ENGINE = TurnLimitLate

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
