#!/usr/bin/env python3
"""A frame of the wrong length: the move list is pretty-printed over several lines, so the
first line, '[', is the whole reply. Expected: BOTWARS-FORMAT-DQ, verdict 'disqualified'
(at the first turn with a botlet to move, turn 2)."""

import json

from warbot import Doc, plan, play


def answer(doc: Doc, turn: int) -> str:
    return json.dumps(plan(doc), indent=1)


play(answer)
