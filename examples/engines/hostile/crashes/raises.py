"""A Python engine (a Flit `Game`) whose `apply` raises ZeroDivisionError at the game's
fourth turn: the same bug whether it runs in-process (`--engine path/raises.py:ENGINE`) or
as a subprocess (`python raises.py`, the wire-protocol server reports it as an internal
error). Both must give one finding with one cause id."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from gamecert.reference_engine.flit import Flit, FlitState


class Raises(Flit):
    """Divides by zero once the game reaches turn 4."""

    def apply(self, state: FlitState, action: Any) -> Any:
        if state.turn >= 4:
            return 1 // (state.turn - state.turn)
        return super().apply(state, action)


ENGINE = Raises

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="hostile-raises")
