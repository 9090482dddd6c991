#!/usr/bin/env python3
"""Slow on one query: the 3rd reply takes 250 ms (limit 50 ms).
Expected: KD-PROTO-LIMITS (late), verdict 'deactivated'."""

import time

from kdbot import Turn, play


def answer(turn: Turn) -> list[str]:
    if turn.number == 3:
        time.sleep(0.25)
    return list(turn.answer())


play(answer)
