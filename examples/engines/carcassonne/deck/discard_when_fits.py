"""Mutant: A tile may be discarded even when a tile of the hand fits. Breaks CARC-HAND-NOFIT."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.turns import DiscardWhenFits as Mutant

RULE = "CARC-HAND-NOFIT"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-discard_when_fits")
