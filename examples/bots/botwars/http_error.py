#!/usr/bin/env python3
"""A web-server bot on the original server's protocol that fails with an HTTP 500 error page
at turn 3. The original server reads a response body whatever its status, and one that is
not JSON as no moves. Expected: BOTWARS-FORMAT-DQ, verdict 'lost turn' (the game goes on)."""

import json

from warbot import Doc, plan, serve


def answer(doc: Doc, turn: int) -> str:
    return "<h1>500 KeyError: 'energy'</h1>" if turn == 3 else json.dumps(plan(doc))


serve(answer, status=lambda turn: 500 if turn == 3 else 200)
