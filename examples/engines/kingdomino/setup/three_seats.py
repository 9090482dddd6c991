"""Mutant: A 4-player game is set up with 3 seats. Breaks KD-PLAYERS."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import ThreeSeats as Mutant

RULE = "KD-PLAYERS"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-three_seats")
