"""Mutant: battles fought one adjacent pair at a time, the dead removed at once, instead of
all battles decided together on the post-move field. Breaks BOTWARS-BATTLE."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import PairwiseBattles

RULE = "BOTWARS-BATTLE"

ENGINE = PairwiseBattles

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
