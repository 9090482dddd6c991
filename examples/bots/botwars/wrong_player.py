#!/usr/bin/env python3
"""Answers the wrong query: it ignores "player" and always moves p1's botlets, so in seat 2
its moves start from squares that are not its own. Expected (seat 2): BOTWARS-MOVE-INVALID,
verdict 'lost turn'."""

import json

from warbot import Doc, plan, play


def answer(doc: Doc, turn: int) -> str:
    return json.dumps(plan(doc, mine="1"))


play(answer)
