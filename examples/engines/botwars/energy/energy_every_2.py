"""Mutant: energy placed every 2 turns instead of every 3. Breaks BOTWARS-ENERGY-SPAWN."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import EnergyEvery2

RULE = "BOTWARS-ENERGY-SPAWN"

ENGINE = EnergyEvery2

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
