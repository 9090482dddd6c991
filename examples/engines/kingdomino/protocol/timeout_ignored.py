"""Mutant: A late reply only skips the turn; the player plays on. Breaks KD-PROTO-LIMITS."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.protocol import TimeoutSkipsTurn as Mutant

RULE = "KD-PROTO-LIMITS"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-timeout_ignored")
