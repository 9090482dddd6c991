"""Mutant: The opening deal gives each player one land tile instead of two. Breaks CARC-HAND-
DEAL."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import DealOne as Mutant

RULE = "CARC-HAND-DEAL"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-deal_one")
