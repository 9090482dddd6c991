"""Mutant: A neutral may land on any empty square, available or not. Breaks FLIT-NEUTRAL-ADD."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import NeutralAnywhere as Mutant

RULE = "FLIT-NEUTRAL-ADD"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-neutral_anywhere")
