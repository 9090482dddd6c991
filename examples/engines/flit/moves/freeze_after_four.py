"""Mutant: Four time-outs in a row freeze a bot. Breaks FLIT-FREEZE."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import FreezeAfterFour as Mutant

RULE = "FLIT-FREEZE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-freeze_after_four")
