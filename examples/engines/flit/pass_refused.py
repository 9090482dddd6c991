"""Mutant: A no move is refused while the bot has a real move. Breaks FLIT-MOVE-NOMOVE."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.contract import IllegalAction
from gamecert.reference_engine.flit import Flit, FlitState
from gamecert.reference_engine.flit.engine import Action

RULE = "FLIT-MOVE-NOMOVE"


class Mutant(Flit):
    """A no move is refused while the bot has a real move."""

    def legal(self, state: FlitState) -> list[Action]:
        actions = super().legal(state)
        return actions[1:] if len(actions) > 1 else actions

    def apply(self, state: FlitState, action: Action) -> tuple[FlitState, list[Any]]:
        if action == ("pass",) and len(super().legal(state)) > 1:
            raise IllegalAction("you have a move: make it")
        return super().apply(state, action)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-pass_refused")
