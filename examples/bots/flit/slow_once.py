#!/usr/bin/env python3
"""Slow on one query: the 3rd move takes 250 ms (limit 50 ms).
Expected: FLIT-TIME-LIMIT, verdict 'lost turn'."""

import time

from flitbot import Board, play


def answer(board: Board) -> str:
    if board.requests == 3:
        time.sleep(0.25)
    return board.choose()


play(answer)
