"""Mutant: The game ends a turn early: after the second-to-last turn's plays.
Breaks KD-GAME-LENGTH."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import OneTurnShort as Mutant

RULE = "KD-GAME-LENGTH"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-no_last_turn")
