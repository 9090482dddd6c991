"""Mutant: The winner is reported as a 0-based index. Breaks FLIT-WINNER."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit

RULE = "FLIT-WINNER"


class Mutant(Flit):
    """The winner is reported as a 0-based index."""

    def winner(self, counts: list[int]) -> int | None:
        best = max(counts)
        return counts.index(best) if counts.count(best) == 1 else None


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-winner_zero_based")
