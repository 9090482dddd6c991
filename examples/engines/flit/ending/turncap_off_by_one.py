"""Mutant: The game runs one turn past the cap. Breaks FLIT-END-TURNCAP."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import TurncapOffByOne as Mutant

RULE = "FLIT-END-TURNCAP"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-turncap_off_by_one")
