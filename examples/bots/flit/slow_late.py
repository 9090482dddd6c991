#!/usr/bin/env python3
"""Over its time late in the game: from the 40th move on, every move takes 150 ms.
Expected: FLIT-TIME-LIMIT (lost turns), then FLIT-FREEZE, verdict 'frozen'."""

import time

from flitbot import Board, play


def answer(board: Board) -> str:
    if board.requests >= 40:
        time.sleep(0.15)
    return board.choose()


play(answer)
