"""Mutant: a forgiving referee: a reply that is JSON but not a list of {from, to} objects
counts as an empty turn instead of disqualifying. Breaks BOTWARS-FORMAT-DQ."""

from __future__ import annotations

import json

from gamecert.reference_engine.botwars.engine import BotWars, Move

RULE = "BOTWARS-FORMAT-DQ"


class LenientFormat(BotWars):
    def parse_reply(self, text: str) -> tuple[Move, ...] | None:
        moves = super().parse_reply(text)
        if moves is not None:
            return moves
        try:
            json.loads(text)
        except ValueError:
            return None
        return ()


ENGINE = LenientFormat

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
