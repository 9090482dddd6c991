"""Mutant: The moving piece counts as its own neighbour. Breaks FLIT-MOVE-VALID."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import SelfNeighbour as Mutant

RULE = "FLIT-MOVE-VALID"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-self_neighbour")
