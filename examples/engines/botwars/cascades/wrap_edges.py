"""Mutant (a cascade pattern: an engine that reads adjacency differently): the field wraps
at its edges like a torus, for moves, battles and energy alike, where the profile's field
has edges. Breaks BOTWARS-GRID, and only it: the moves and battles across an edge follow
from the grid, and must not be charged to BOTWARS-MOVE or BOTWARS-BATTLE."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import WrapEdges

RULE = "BOTWARS-GRID"

ENGINE = WrapEdges

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
