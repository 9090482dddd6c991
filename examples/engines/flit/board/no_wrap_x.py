"""Mutant: Move adjacency forgets to wrap left-right. Breaks FLIT-BOARD-TORUS."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import NoWrapX as Mutant

RULE = "FLIT-BOARD-TORUS"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-no_wrap_x")
