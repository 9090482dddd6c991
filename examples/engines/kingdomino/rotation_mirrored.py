"""Mutant: Rotations 1 and 3 are swapped: 1 puts the second square above.
Breaks KD-PLACE-ROTATION."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino import Kingdomino

RULE = "KD-PLACE-ROTATION"
PROFILE = "legend"


class Mutant(Kingdomino):
    """Rotations 1 and 3 are swapped: 1 puts the second square above."""

    def second_cell(self, x: int, y: int, rotation: int) -> tuple[int, int]:
        return super().second_cell(x, y, {1: 3, 3: 1}.get(rotation, rotation))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-rotation_mirrored")
