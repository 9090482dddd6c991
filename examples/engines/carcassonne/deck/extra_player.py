"""Mutant: A new game seats one player more than the profile says. Breaks CARC-PLAYERS."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import ExtraPlayer as Mutant

RULE = "CARC-PLAYERS"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-extra_player")
