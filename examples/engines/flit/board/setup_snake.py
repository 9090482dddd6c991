"""Mutant: Second initial pieces are dealt in reverse (snake) order. Breaks FLIT-SETUP-ORDER."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import SetupSnake as Mutant

RULE = "FLIT-SETUP-ORDER"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-setup_snake")
