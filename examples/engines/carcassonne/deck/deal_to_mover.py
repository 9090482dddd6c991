"""Mutant: Every draw goes to the player whose turn it is, so the opening deal lands in one
hand. Breaks CARC-DECK-DRAW."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import DealToMover as Mutant

RULE = "CARC-DECK-DRAW"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-deal_to_mover")
