"""Mutant: With 3 players each line has 4 tiles (48 in play), as with 4. Breaks KD-TILES-IN-PLAY."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import ThreePlayerLineOfFour as Mutant

RULE = "KD-TILES-IN-PLAY"
PROFILE = "legend-3p"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-three_player_line_4")
