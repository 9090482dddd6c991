"""Mutant: The winner is decided on the scores before the final scoring of open features.
Breaks CARC-WINNER."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import WinnerBeforeFinal as Mutant

RULE = "CARC-WINNER"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-winner_before_final")
