#!/usr/bin/env python3
"""Faulty web-server bots on the original server's protocol, by their first argument:
`slow SECONDS` (turn 3 answered after SECONDS: the request times out, the game ends, the
other bot wins: BOTWARS-TIME-LIMIT, 'disqualified'), `crash` (the server exits at turn 3:
BOT-ALIVE, 'disqualified'), `print` (a debug line before the list in the body at turn 3:
not JSON, read as no moves: BOTWARS-FORMAT-DQ, 'lost turn'), `null` (answers null at turn 3:
the server waits for ever: BOTWARS-FORMAT-DQ, 'game stalls'), `diagonal` (a diagonal step at
turn 3: BOTWARS-MOVE-INVALID, 'lost turn')."""

import json
import os
import sys
import time

from warbot import Doc, diagonal, plan, serve

MODE = sys.argv[1]


def answer(doc: Doc, turn: int) -> str:
    moves = json.dumps(plan(doc))
    if turn != 3:
        return moves
    if MODE == "slow":
        time.sleep(float(sys.argv[2]))
    elif MODE == "crash":
        os._exit(3)
    elif MODE == "print":
        return f"turn {turn}\n{moves}"
    elif MODE == "null":
        return "null"
    elif MODE == "diagonal":
        return json.dumps([diagonal(doc)])
    return moves


serve(answer)
