"""Mutant: A PICK on the last turn is accepted (and ignored). Breaks KD-LAST-TURN-NO-PICK."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULE = "KD-LAST-TURN-NO-PICK"
PROFILE = "legend"


class Mutant(Kingdomino):
    """A PICK on the last turn is accepted (and ignored)."""

    def pick_error(self, state: KdState, pick: Any) -> str | None:
        if self.last_turn(state) and type(pick) is int and 1 <= pick <= 48:
            return None
        return super().pick_error(state, pick)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-pick_on_last_turn")
