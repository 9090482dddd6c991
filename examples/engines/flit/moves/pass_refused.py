"""Mutant: A no move is refused while the bot has a real move. Breaks FLIT-MOVE-NOMOVE."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import PassRefused as Mutant

RULE = "FLIT-MOVE-NOMOVE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-pass_refused")
