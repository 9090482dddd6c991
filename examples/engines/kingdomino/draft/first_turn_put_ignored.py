"""Mutant: A PUT on the first turn is accepted (and ignored). Breaks KD-FIRST-TURN-NO-PUT."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import FirstTurnPutIgnored as Mutant

RULE = "KD-FIRST-TURN-NO-PUT"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-first_turn_put_ignored")
