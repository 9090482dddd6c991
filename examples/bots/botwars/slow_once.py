#!/usr/bin/env python3
"""Slow on one query: turn 5 takes 2.3 s (limit 2 s).
Expected: BOTWARS-TIME-LIMIT, verdict 'disqualified'."""

import json
import time

from warbot import Doc, plan, play


def answer(doc: Doc, turn: int) -> str:
    if turn == 5:
        time.sleep(2.3)
    return json.dumps(plan(doc))


play(answer)
