"""Mutant: After a claim on a feature that stays open, the claim step goes on: a second claim
is allowed. Breaks CARC-CLAIM-ONE."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-CLAIM-ONE"


class Mutant(Carcassonne):
    """After a claim on a feature that stays open, the claim step goes on: a second claim is
    allowed."""

    def _end_claim(self, state: CarcState, events: list[Any]) -> CarcState:
        if events and events[-1]["type"] == "meeple-placed" and not self._completed_by(
                state, state.placed):
            return state  # still the claim step
        return super()._end_claim(state, events)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-claim_stays_open")
