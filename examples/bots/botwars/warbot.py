"""A small Bot Wars bot library: each botlet steps toward the enemy spawn onto a free
square, never two onto one square. The example bots here import it; each faulty bot changes
one thing. Protocol (stdio): one JSON document per line in, one JSON list per line out.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

Doc = dict[str, Any]
Moves = list[dict[str, int]]


def plan(doc: Doc, mine: str | None = None, walkable: str = ".xX") -> Moves:
    st = doc["state"]
    me = doc["player"]
    mine = mine or ("1" if me == "p1" else "2")
    rows, cols, grid = st["rows"], st["cols"], st["grid"]
    target = st["p2" if mine == "1" else "p1"]["spawn"]
    tr, tc = divmod(target, cols)
    taken: set[int] = set()
    moves: Moves = []
    for i, c in enumerate(grid):
        if c != mine:
            continue
        r, col = divmod(i, cols)
        options = []
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            nr, nc = r + dr, col + dc
            t = nr * cols + nc
            if 0 <= nr < rows and 0 <= nc < cols and grid[t] in walkable and t not in taken:
                options.append((abs(nr - tr) + abs(nc - tc), t))
        if options:
            t = min(options)[1]
            taken.add(t)
            moves.append({"from": i, "to": t})
    return moves


def play(answer: Callable[[Doc, int], str] | None = None) -> None:
    """One reply line per document line; `answer(doc, turn)` may change the reply."""
    for turn, line in enumerate(sys.stdin, 1):
        doc = json.loads(line)
        reply = answer(doc, turn) if answer else json.dumps(plan(doc))
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
