"""Mutant: The game ends as soon as the land deck is empty, with tiles still in hands. Breaks
CARC-END-TILES."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import EndWhenDeckEmpty as Mutant

RULE = "CARC-END-TILES"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-end_when_deck_empty")
