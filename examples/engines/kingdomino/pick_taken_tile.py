"""Mutant: A king may pick a tile another king has already picked. Breaks KD-PICK."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULE = "KD-PICK"
PROFILE = "legend"


class Mutant(Kingdomino):
    """A king may pick a tile another king has already picked."""

    def pick_error(self, state: KdState, pick: Any) -> str | None:
        if not self.last_turn(state) and pick in {t for t, _ in state.line}:
            return None
        return super().pick_error(state, pick)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-pick_taken_tile")
