"""Mutant: A land tile may go on an empty cell that touches the board only at a corner.
Breaks CARC-PLACE-ADJACENT."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import DiagonalOk as Mutant

RULE = "CARC-PLACE-ADJACENT"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-diagonal_ok")
