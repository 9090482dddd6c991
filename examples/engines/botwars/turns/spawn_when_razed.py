"""Mutant: a razed spawn still produces botlets. Breaks BOTWARS-SPAWN."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import SpawnWhenRazed

RULE = "BOTWARS-SPAWN"

ENGINE = SpawnWhenRazed

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
