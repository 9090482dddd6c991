#!/usr/bin/env python3
"""A debug print on stdout at turn 4. Expected: BOTWARS-FORMAT-DQ, verdict 'disqualified'."""

import json

from warbot import Doc, plan, play


def answer(doc: Doc, turn: int) -> str:
    moves = json.dumps(plan(doc))
    return f"turn {turn}: {moves}\n{moves}" if turn == 4 else moves


play(answer)
