#!/usr/bin/env python3
"""Replies to the wrong query type: it answers every update line with a move, not only `M`.
Expected: FLIT-PROTO-REPLY (output nobody asked for), verdict 'lost turn'."""

import sys

from flitbot import Board

me = int(sys.stdin.readline())
board = Board(me)
for line in sys.stdin:
    parts = line.split()
    if len(parts) == 3:
        board.update(*map(int, parts))
    if board.mine():
        print(board.choose(), flush=True)
