"""Mutant: the energy step lists the free mirror pairs with unequal weights (the first pair
twice as likely as each other one). The pairs it lists and every transition are right:
only the probabilities are wrong. Breaks BOTWARS-ENERGY-SPAWN."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import EnergyWeights

RULE = "BOTWARS-ENERGY-SPAWN"

ENGINE = EnergyWeights

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
