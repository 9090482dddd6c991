"""Mutant: A real move does not reset the run of no moves. Breaks FLIT-END-ALLPASS."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import AllpassNoReset as Mutant

RULE = "FLIT-END-ALLPASS"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-allpass_no_reset")
