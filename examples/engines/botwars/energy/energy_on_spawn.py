"""Mutant: energy may be placed on the spawn points under every reading, though the default
one (not-on-spawn) keeps them clear. Breaks BOTWARS-ENERGY-SQUARES."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import EnergyOnSpawn

RULE = "BOTWARS-ENERGY-SQUARES"

ENGINE = EnergyOnSpawn

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
