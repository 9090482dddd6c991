"""Mutant: Conversion misses neutrals across the wrap. Breaks FLIT-CONVERT."""

from __future__ import annotations

from gamecert.reference_engine.flit import Flit, FlitState

RULE = "FLIT-CONVERT"


class Mutant(Flit):
    """Conversion misses neutrals across the wrap."""

    def convertible(self, state: FlitState, dest: int) -> tuple[int, ...]:
        w, h = state.width, state.height
        x, y = dest % w, dest // w
        return tuple(ny * w + nx for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
                     if 0 <= nx < w and 0 <= ny < h)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-convert_no_wrap")
