#!/usr/bin/env python3
"""An illegal move: on its 5th move the bot moves a piece of another bot (or, if it knows of
none, a square off the board), which it may not. Expected in every seat: FLIT-MOVE-VALID,
verdict 'lost turn' (the move counts as no move)."""

from flitbot import Board, play


def answer(board: Board) -> str:
    if board.requests == 5:
        theirs = sorted(p for p, c in board.colour.items() if c not in (0, 5, board.me))
        x, y = theirs[0] if theirs else (40, 40)
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            to = ((x + dx) % 32, (y + dy) % 32)
            if to not in board.colour:
                return f"{x} {y} {to[0]} {to[1]}"
    return board.choose()


play(answer)
