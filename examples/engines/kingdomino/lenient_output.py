"""Mutant: The referee accepts lower case and runs of spaces in the two output lines.
Breaks KD-PROTO-OUTPUT."""

from __future__ import annotations

import re

from gamecert.reference_engine.kingdomino import Kingdomino
from gamecert.reference_engine.kingdomino.engine import Action, KdState

RULE = "KD-PROTO-OUTPUT"
PROFILE = "legend"


class Mutant(Kingdomino):
    """The referee accepts lower case and runs of spaces in the two output lines."""

    def referee(self, state: KdState, text: str) -> Action:
        lines = [re.sub(r"[ \t]+", " ", ln.strip()).upper() for ln in text.split("\n")]
        return super().referee(state, "\n".join(lines))


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-lenient_output")
