"""Mutant: A reply in time does not reset the run of time-outs. Breaks FLIT-TIME-LIMIT."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import TimeoutRunKept as Mutant

RULE = "FLIT-TIME-LIMIT"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-timeout_run_kept")
