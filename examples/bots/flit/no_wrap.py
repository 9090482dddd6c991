#!/usr/bin/env python3
"""An illegal move only in a rare position: the bot forgets the torus when it writes a
destination, so a move across the board's edge names x = 32 or y = -1.
Expected: FLIT-MOVE-VALID, verdict 'lost turn'."""

from flitbot import Board, play


def answer(board: Board) -> str:
    moves = board.moves(wrap=False)
    if not moves:
        return board.choose()
    return " ".join(map(str, board.rng.choice(moves)))


play(answer)
