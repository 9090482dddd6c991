"""Mutant: A badly formatted output or an invalid PICK only skips the turn; the player plays on.
Breaks KD-STOP."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULE = "KD-STOP"
PROFILE = "legend"


class Mutant(Kingdomino):
    """A badly formatted output or an invalid PICK only skips the turn; the player plays on."""

    def _stop(self, state: KdState, cause: Any) -> tuple[KdState, list[Any]]:
        after, events = super()._stop(state, cause)
        if cause in ("format", "pick") and after.result is None:
            p = state.placing[state.nxt][1]
            stopped = tuple(s and i != p - 1 for i, s in enumerate(after.stopped))
            after = after._replace(stopped=stopped)
        return after, events


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-stop_not_recorded")
