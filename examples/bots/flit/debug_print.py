#!/usr/bin/env python3
"""A debug print on stdout: on the 7th move it prints its piece count before the move.
Expected: FLIT-PROTO-REPLY, verdict 'lost turn'."""

from flitbot import Board, play


def answer(board: Board) -> str:
    if board.requests == 7:
        print(f"debug: I have {len(board.mine())} pieces", flush=True)
    return board.choose()


play(answer)
