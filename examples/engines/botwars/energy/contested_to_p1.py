"""Mutant: energy touched by both bots goes to p1 instead of vanishing. Breaks
BOTWARS-ENERGY-CONTESTED."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import ContestedToP1

RULE = "BOTWARS-ENERGY-CONTESTED"

ENGINE = ContestedToP1

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
