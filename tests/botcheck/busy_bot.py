"""A Flit bot that computes (burns CPU) for MS milliseconds on its 3rd move, where the
example slow_once.py sleeps: bot-check tells the two apart by the bot's own CPU time.

    python busy_bot.py MS
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "bots" / "flit"))

from flitbot import Board, play

MS = float(sys.argv[1])
sys.argv[1:] = []  # flitbot reads its number from the first line


def answer(board: Board) -> str:
    if board.requests == 3:
        end = time.process_time() + MS / 1000
        while time.process_time() < end:
            pass
    return board.choose()


play(answer)
