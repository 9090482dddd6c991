"""Mutant: botlets diagonal to energy collect it too. Breaks BOTWARS-ENERGY-COLLECT."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import CollectDiagonal

RULE = "BOTWARS-ENERGY-COLLECT"

ENGINE = CollectDiagonal

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
