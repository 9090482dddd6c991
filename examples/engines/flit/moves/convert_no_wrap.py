"""Mutant: Conversion misses neutrals across the wrap. Breaks FLIT-CONVERT."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import ConvertNoWrap as Mutant

RULE = "FLIT-CONVERT"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-convert_no_wrap")
