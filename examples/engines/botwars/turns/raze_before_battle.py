"""Mutant: razing looks at the field before the battles, so a botlet that dies on the enemy
spawn still razes it. Breaks BOTWARS-RAZE."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import RazeBeforeBattle

RULE = "BOTWARS-RAZE"

ENGINE = RazeBeforeBattle

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
