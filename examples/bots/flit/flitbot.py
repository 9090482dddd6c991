"""A small Flit bot library: tracks the board from updates and finds a legal move.

The example bots in this folder import it (a script's folder is on its import path); each
faulty bot changes one thing about how it answers. Protocol: the bot's number on the first
line (or as the last argument), then `x y c` updates and `M` requests on stdin; one line
`x0 y0 x1 y1` on stdout per `M`.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

W = H = 32


class Board:
    def __init__(self, me: int) -> None:
        self.me = me
        self.colour: dict[tuple[int, int], int] = {}
        self.rng = random.Random(me)
        self.requests = 0

    def update(self, x: int, y: int, c: int) -> None:
        if c:
            self.colour[(x, y)] = c
        else:
            self.colour.pop((x, y), None)

    def mine(self) -> list[tuple[int, int]]:
        return sorted(p for p, c in self.colour.items() if c == self.me)

    def moves(self, wrap: bool = True) -> list[tuple[int, int, int, int]]:
        """Legal moves: any piece to an empty square beside another of our pieces."""
        pieces = self.mine()
        out = []
        for qx, qy in pieces:
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                x, y = qx + dx, qy + dy
                if wrap:
                    x, y = x % W, y % H
                if (x % W, y % H) in self.colour:
                    continue
                for ox, oy in pieces:
                    if (ox, oy) != (qx, qy):
                        out.append((ox, oy, x, y))
        return out

    def choose(self) -> str:
        moves = self.moves()
        if not moves:  # no move: origin = destination (any square will do)
            x, y = (self.mine() or [(0, 0)])[0]
            return f"{x} {y} {x} {y}"
        return " ".join(map(str, self.rng.choice(moves)))


def play(answer: Callable[[Board], str] | None = None) -> None:
    """Read stdin to the end; call `answer` (default: a random legal move) on each `M`."""
    stdin = sys.stdin
    me = int(sys.argv[-1]) if len(sys.argv) > 1 else int(stdin.readline())
    board = Board(me)
    for line in stdin:
        parts = line.split()
        if parts == ["M"]:
            board.requests += 1
            reply = (answer or Board.choose)(board)
            if reply:
                sys.stdout.write(reply + "\n")
                sys.stdout.flush()
        elif len(parts) == 3:
            board.update(int(parts[0]), int(parts[1]), int(parts[2]))
