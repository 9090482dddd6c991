#!/usr/bin/env python3
"""An illegal move only in a rare position: the bot walks onto energy when energy lies on
its path (energy must be gathered from beside it). Expected: BOTWARS-MOVE-ENERGY, verdict
'lost turn'."""

import json

from warbot import Doc, plan, play


def answer(doc: Doc, turn: int) -> str:
    return json.dumps(plan(doc, walkable=".xX*"))


play(answer)
