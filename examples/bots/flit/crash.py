#!/usr/bin/env python3
"""A crash mid-game: an exception on the 10th move. Expected: BOT-ALIVE, verdict 'frozen'."""

from flitbot import Board, play


def answer(board: Board) -> str:
    if board.requests == 10:
        raise RuntimeError("index out of range in my search")
    return board.choose()


play(answer)
