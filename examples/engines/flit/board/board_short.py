"""Mutant: The board is one row short: 32 x 31. Breaks FLIT-BOARD-SIZE."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import BoardShort as Mutant

RULE = "FLIT-BOARD-SIZE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-board_short")
