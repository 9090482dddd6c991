"""Mutant: Hands are topped up to two tiles at the start of a turn, not three. Breaks CARC-
HAND-SIZE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import HandOfTwo as Mutant

RULE = "CARC-HAND-SIZE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-hand_of_two")
