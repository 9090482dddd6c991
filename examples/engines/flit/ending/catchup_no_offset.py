"""Mutant: P lacks the - 4. Breaks FLIT-END-CATCHUP."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import CatchupNoOffset as Mutant

RULE = "FLIT-END-CATCHUP"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-catchup_no_offset")
