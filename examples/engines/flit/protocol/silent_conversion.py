"""Mutant: Conversions happen but are not announced. Breaks FLIT-PROTO-UPDATES."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import SilentConversion as Mutant

RULE = "FLIT-PROTO-UPDATES"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-silent_conversion")
