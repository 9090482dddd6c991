"""A small Bot Wars bot library: each botlet steps toward the enemy spawn onto a free
square, never two onto one square. The example bots here import it; each faulty bot changes
one thing. Two protocols: stdio (`play`: one JSON document per line in, players p1 and p2,
botlets '1' and '2'; one JSON list per line out) and the original server's HTTP (`serve`: a
web server printing its URL first; each turn a POST whose form field `data` holds the
document, players r and b, botlets 'r' and 'b'; the JSON list as the response body).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

Doc = dict[str, Any]
Moves = list[dict[str, int]]


MARKS = {"p1": "1", "p2": "2", "r": "r", "b": "b"}  # a player's botlets on the grid


def plan(doc: Doc, mine: str | None = None, walkable: str = ".xX") -> Moves:
    st = doc["state"]
    me = doc["player"]
    mine = mine or MARKS[me]
    rows, cols, grid = st["rows"], st["cols"], st["grid"]
    target = st["p2" if mine in ("1", "r") else "p1"]["spawn"]
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


def diagonal(doc: Doc) -> dict[str, int]:
    """A step of the first own botlet one square down and right (or up and left): no move."""
    st = doc["state"]
    cols = st["cols"]
    i = st["grid"].index(MARKS[doc["player"]])
    return {"from": i, "to": i + cols + 1 if i + cols + 1 < len(st["grid"]) else i - cols - 1}


def serve(answer: Callable[[Doc, int], str] | None = None,
          status: Callable[[int], int] | None = None) -> None:
    """The original server's protocol: one POST per turn, the document in the form field
    `data`; `answer(doc, turn)` may change the reply, `status(turn)` its HTTP status."""
    from http.server import BaseHTTPRequestHandler, HTTPServer
    from urllib.parse import parse_qs

    turns = [0]

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            turns[0] += 1
            form = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
            doc = json.loads(form["data"][0])
            body = (answer(doc, turns[0]) if answer else json.dumps(plan(doc))).encode()
            self.send_response(status(turns[0]) if status else 200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


def play(answer: Callable[[Doc, int], str] | None = None) -> None:
    """One reply line per document line; `answer(doc, turn)` may change the reply."""
    for turn, line in enumerate(sys.stdin, 1):
        doc = json.loads(line)
        reply = answer(doc, turn) if answer else json.dumps(plan(doc))
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()
