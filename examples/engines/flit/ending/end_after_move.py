"""Mutant: End conditions are checked right after the move. Breaks FLIT-END-TIMING."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import EndAfterMove as Mutant

RULE = "FLIT-END-TIMING"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-end_after_move")
