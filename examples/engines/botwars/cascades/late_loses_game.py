"""Mutant (a cascade pattern: an engine that stops the game early): a bot that answers late
is disqualified and loses the game, where the `lenient` profile says it only loses its turn.
Breaks BOTWARS-TIME-LIMIT, and only it: the later phases' oracles (battles, spawns, energy)
must not be charged with the turn the reference played on."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import LateLosesGame

RULE = "BOTWARS-TIME-LIMIT"
PROFILE = "lenient"

ENGINE = LateLosesGame

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
