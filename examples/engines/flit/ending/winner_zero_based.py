"""Mutant: The winner is reported as a 0-based index. Breaks FLIT-WINNER."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import WinnerZeroBased as Mutant

RULE = "FLIT-WINNER"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-winner_zero_based")
