#!/usr/bin/env python3
"""A crash mid-game: the bot exits at turn 8. Expected: BOT-ALIVE, verdict 'disqualified'."""

import json
import sys

from warbot import Doc, plan, play


def answer(doc: Doc, turn: int) -> str:
    if turn == 8:
        sys.exit("out of memory (pretend)")
    return json.dumps(plan(doc))


play(answer)
