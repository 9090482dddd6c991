"""Mutant: The referee takes any player_id as the player to move's. Breaks CARC-PROTO-REPLY."""

from __future__ import annotations

import json

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import Action
from gamecert.reference_engine.carcassonne.protocol import FRAME, frame

RULE = "CARC-PROTO-REPLY"


class Mutant(Carcassonne):
    """The referee takes any player_id as the player to move's."""

    def referee(self, state: CarcState, text: str) -> Action:
        m = FRAME.fullmatch(text)
        # a well-framed reply (the frame is checked as the reference does) gets its
        # player_id replaced by the mover's
        if m and int(m.group(1)) == len(m.group(2)) and len(text) <= state.cfg.max_chars:
            try:
                data = json.loads(m.group(2))
            except ValueError:
                data = None
            if isinstance(data, dict) and "player_id" in data and state.to_move:
                data["player_id"] = state.to_move - 1
                text = frame(json.dumps(data))
        return super().referee(state, text)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-player_id_unchecked")
