"""Mutant: Rotations 1 and 3 are swapped: 1 puts the second square above.
Breaks KD-PLACE-ROTATION."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.placement import RotationMirrored as Mutant

RULE = "KD-PLACE-ROTATION"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-rotation_mirrored")
