"""Mutant: Reply coordinates off the board are wrapped onto it. Breaks FLIT-PROTO-REPLY."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-PROTO-REPLY"


class Mutant(Flit):
    """Reply coordinates off the board are wrapped onto it."""

    def reply_squares(self, state: FlitState, x0: int, y0: int, x1: int,
                      y1: int) -> tuple[int, int] | None:
        w, h = state.width, state.height
        return (y0 % h) * w + x0 % w, (y1 % h) * w + x1 % w


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-reply_wraps")
