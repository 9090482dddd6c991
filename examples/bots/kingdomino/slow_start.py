#!/usr/bin/env python3
"""A correct bot that thinks for 600 ms on its first turn (the limit there is 1000 ms, 50 ms
after). Expected verdict: clean."""

import time

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    if turn.number == 1:
        time.sleep(0.6)
    return list(turn.answer())


play(answer)
