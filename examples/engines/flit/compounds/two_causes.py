"""Not a public mutant: an engine with two independent departures, a move rule
(FLIT-MOVE-VALID, from `self_neighbour`) and a tie rule (FLIT-WINNER-TIE, from
`tie_lowest_wins`). Triage must report exactly two findings, one per cause; a baseline
that accepts the first must fail the run on the second alone."""

from __future__ import annotations

from examples.engines.flit.ending import tie_lowest_wins
from examples.engines.flit.moves import self_neighbour

RULES = (self_neighbour.RULE, tie_lowest_wins.RULE)


class TwoCauses(self_neighbour.Mutant, tie_lowest_wins.Mutant):
    pass


ENGINE = TwoCauses

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
