"""Mutant: Conversions happen but are not announced. Breaks FLIT-PROTO-UPDATES."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-PROTO-UPDATES"


class Mutant(Flit):
    """Conversions happen but are not announced."""

    def conversion_event(self, state: FlitState, bot: int, square: int) -> dict[str, Any] | None:
        return None


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-silent_conversion")
