"""Mutant: A PUT on the first turn is accepted (and ignored). Breaks KD-FIRST-TURN-NO-PUT."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState, Put

RULE = "KD-FIRST-TURN-NO-PUT"
PROFILE = "legend"


class Mutant(Kingdomino):
    """A PUT on the first turn is accepted (and ignored)."""

    def _play(self, state: KdState, put: Put | None, pick: Any,
              invalid_put: bool) -> tuple[KdState, list[Any]]:
        if state.turn == 1:
            put = None
        return super()._play(state, put, pick, invalid_put)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-first_turn_put_ignored")
