"""Mutant: A river tile may go on any open cell where its edges fit, not only at the river's
end. Breaks CARC-RIVER-CONTIGUOUS."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.river import RiverAnywhere as Mutant

RULE = "CARC-RIVER-CONTIGUOUS"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-river_anywhere")
