"""Mutant: The winner is decided on the scores before the final scoring of open features.
Breaks CARC-WINNER."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState

RULE = "CARC-WINNER"


class Mutant(Carcassonne):
    """The winner is decided on the scores before the final scoring of open features."""

    def _finish(self, state: CarcState, reason: str, events: list[Any]) -> CarcState:
        before = list(state.scores)
        out = super()._finish(state, reason, events)
        assert out.result is not None
        winners = self.winners(state.cfg, before)
        events[-1] = dict(events[-1], winners=winners)  # the game-won event
        return out._replace(result=dict(out.result, winners=winners))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-winner_before_final")
