"""Mutant: The referee ignores the length prefix of a bot's message. Breaks CARC-PROTO-FRAME."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import Action
from gamecert.reference_engine.carcassonne.protocol import FRAME, frame

RULE = "CARC-PROTO-FRAME"


class Mutant(Carcassonne):
    """The referee ignores the length prefix of a bot's message."""

    def referee(self, state: CarcState, text: str) -> Action:
        m = FRAME.fullmatch(text)
        return super().referee(state, frame(m.group(2)) if m else text)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-frame_length_unchecked")
