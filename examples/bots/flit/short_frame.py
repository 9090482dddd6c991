#!/usr/bin/env python3
"""A frame of the wrong length: on the 5th move it sends three numbers, not four.
Expected: FLIT-PROTO-REPLY, verdict 'lost turn'."""

from flitbot import Board, play


def answer(board: Board) -> str:
    move = board.choose()
    return " ".join(move.split()[:3]) if board.requests == 5 else move


play(answer)
