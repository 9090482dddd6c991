"""Mutant: A tie for first goes to the lowest-numbered bot. Breaks FLIT-WINNER-TIE."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import TieLowestWins as Mutant

RULE = "FLIT-WINNER-TIE"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-tie_lowest_wins")
