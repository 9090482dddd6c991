"""Mutant: Initial pieces may go on any empty square. Breaks FLIT-SETUP-AVAILABLE."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import SetupAnyEmpty as Mutant

RULE = "FLIT-SETUP-AVAILABLE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-setup_any_empty")
