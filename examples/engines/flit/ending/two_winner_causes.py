"""Mutant with two different departures under one rule, FLIT-WINNER: a game that ends with
every bot passing reports the pieces counted in the wrong order, and any other game with a
single leader names the bot after the leader its winner. A campaign must report both
(issue 16: a rule found broken once is still hunted for its other departures). Neither is
a model of the departure library, so the oracle's own causes name them."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.flit import Flit
from gamecert.reference_engine.flit.engine import FlitState

RULE = "FLIT-WINNER"
CAUSES = ("counts", "winner")


class Mutant(Flit):
    def _finish(self, state: FlitState, reasons: list[str], events: list[Any]) -> FlitState:
        ended = super()._finish(state, reasons, events)
        result = dict(ended.result or {})
        if "all-pass" in reasons:
            result["counts"] = list(reversed(result["counts"]))
        elif result["winner"] is not None:
            result["winner"] = result["winner"] % 4 + 1
        events[-1] = {**events[-1], **result}
        return ended._replace(result=result)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-two_winner_causes")
