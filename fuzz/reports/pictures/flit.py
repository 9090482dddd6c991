"""Flit boards as SVG: the torus flattened, pieces in their bot's colour, neutral squares
dark grey. Draws a canonical state (schemas/flit-state.schema.json); judges nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gamecert.fuzz.reports.pictures.svg import (
    action_mark,
    caption_lines,
    diff_mark,
    diff_ring,
    document,
    extent,
    line,
    missing_square,
    path,
    player_colour,
    rect,
)

JSON = Any
Cell = tuple[int, int]
SIZE = 12  # pixels per square
NEUTRAL = "#444444"
EMPTY = "#f6f3ec"
GRID = "#ddd8cc"


def _board(state: JSON) -> str:
    board = state["board"]
    if not isinstance(board, str) or set(board) - set("012345"):
        raise ValueError("the board is not a string of 0 to 5")
    return board


def _squares(state: JSON) -> Iterator[tuple[Cell, str]]:
    width = int(state["width"])
    for i, ch in enumerate(_board(state)):
        yield (i % width, i // width), ch


def draw(state: JSON, highlight: frozenset[Cell], marks: frozenset[Cell]) -> str:
    width, height = int(state["width"]), int(state["height"])
    board = _board(state)
    if not (0 < width <= 256 and 0 < height <= 256):
        raise ValueError(f"board of {width} x {height} squares")
    all_w, all_h = extent(width, height, highlight)
    w, h = all_w * SIZE, all_h * SIZE
    body = [rect(0, 0, width * SIZE, height * SIZE, fill=EMPTY)]
    body += [missing_square(x, y, SIZE) for x, y in sorted(highlight)
             if (x >= width or y >= height) and x < all_w and y < all_h]
    body += [line(x * SIZE, 0, x * SIZE, h, stroke=GRID, stroke_width=0.5)
             for x in range(1, width)]
    body += [line(0, y * SIZE, w, y * SIZE, stroke=GRID, stroke_width=0.5)
             for y in range(1, height)]
    counts = [0] * 6
    # one path per colour: a full board is a thousand squares, and a report may hold dozens
    shapes: list[list[str]] = [[] for _ in range(6)]
    for (x, y), ch in _squares(state):
        if y >= height or ch not in "12345":
            continue
        v = int(ch)
        counts[v] += 1
        shapes[v].append(f"M{x * SIZE + 1} {y * SIZE + 1}h{SIZE - 2}v{SIZE - 2}h{2 - SIZE}z")
    for v in range(1, 6):
        if shapes[v]:
            body.append(path("".join(shapes[v]), fill=NEUTRAL if v == 5 else player_colour(v),
                             class_=f"p{v}"))
    for x, y in sorted(marks):
        if 0 <= x < width and 0 <= y < height:
            body.append(action_mark(x * SIZE, y * SIZE, SIZE, SIZE, (x, y)))
    for x, y in sorted(highlight):
        if 0 <= x < all_w and 0 <= y < all_h:
            body.append(diff_mark(x * SIZE - 1, y * SIZE - 1, SIZE + 2, SIZE + 2, (x, y)))
            if len(highlight) <= 12:
                body.append(diff_ring((x + 0.5) * SIZE, (y + 0.5) * SIZE, SIZE * 1.4))
    lines = [f"turn {state.get('turn')}, phase {state.get('phase')}, to move "
             f"{state.get('to_move')}, passes {state.get('passes')}",
             "pieces " + ", ".join(f"bot {p}: {counts[p]}" for p in range(1, 5))
             + f"; neutral {counts[5]}"]
    if len(board) != width * height:
        lines.append(f"the board has {len(board)} squares, not {width} x {height}")
    if state.get("result"):
        r = state["result"]
        lines.append(f"over ({', '.join(map(str, r.get('reasons', [])))}), "
                     f"winner {r.get('winner')}")
    flags = state.get("frozen")
    frozen = [i + 1 for i, f in enumerate(flags) if f] if isinstance(flags, list) else []
    if frozen:
        lines.append(f"frozen: {', '.join(map(str, frozen))}")
    body += caption_lines(h + 2, lines)
    return document(w, h + 6 + 16 * len(lines), body,
                    f"Flit board, turn {state.get('turn')}",
                    max_width=w + 2 * SIZE, pad=SIZE)


def changed_cells(reference: JSON, engine: JSON) -> set[Cell]:
    a, b = dict(_squares(reference)), dict(_squares(engine))
    return {cell for cell in a.keys() | b.keys() if a.get(cell) != b.get(cell)}


def action_cells(state: JSON, action: JSON) -> set[Cell]:
    cells = [action.get(k) for k in ("from", "to", "at")]
    return {(int(c[0]), int(c[1])) for c in cells if isinstance(c, list) and len(c) == 2}


def square_label(state: JSON, field: str, index: int) -> str | None:
    if field != "board":
        return None
    width = int(state["width"])
    return f"(x {index % width}, y {index // width})"
