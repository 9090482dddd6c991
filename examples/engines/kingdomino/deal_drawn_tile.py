"""Mutant: A tile already drawn may be drawn again. Breaks KD-DEAL."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import KdState

RULE = "KD-DEAL"
PROFILE = "legend"


class Mutant(Kingdomino):
    """A tile already drawn may be drawn again."""

    def _deal(self, state: KdState, tile: Any) -> tuple[KdState, list[Any]]:
        if type(tile) is int and 1 <= tile <= 48 and tile not in state.bag \
                and tile not in {t for t, _ in state.line}:
            state = state._replace(bag=tuple(sorted((*state.bag, tile))))
        return super()._deal(state, tile)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-deal_drawn_tile")
