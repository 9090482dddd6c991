#!/usr/bin/env python3
"""An illegal move: at turn 3 the bot steps its first botlet diagonally (one square down and
right), which is not a move. Expected in either seat: BOTWARS-MOVE-INVALID, verdict
'lost turn' (the whole turn, BOTWARS-MOVE-INVALID = lose-turn)."""

import json

from warbot import Doc, diagonal, plan, play


def answer(doc: Doc, turn: int) -> str:
    if turn == 3:
        return json.dumps([diagonal(doc)])
    return json.dumps(plan(doc))


play(answer)
