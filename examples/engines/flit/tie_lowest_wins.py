"""Mutant: A tie for first goes to the lowest-numbered bot. Breaks FLIT-WINNER-TIE."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit

RULE = "FLIT-WINNER-TIE"


class Mutant(Flit):
    """A tie for first goes to the lowest-numbered bot."""

    def winner(self, counts: list[int]) -> int | None:
        return counts.index(max(counts)) + 1


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-tie_lowest_wins")
