"""Mutant: a botlet may move onto a square its own botlet holds (the two merge into one).
Breaks BOTWARS-MOVE-OCCUPIED."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import MoveOntoOwn

RULE = "BOTWARS-MOVE-OCCUPIED"

ENGINE = MoveOntoOwn

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
