"""Kingdomino kingdoms as SVG: each player's 9 x 9 grid side by side, squares in their
terrain's colour with their crowns, the castle in grey. Draws a canonical state
(schemas/kingdomino-state.schema.json); judges nothing.

Cells are (x, y) over the whole picture: player p's square (x, y) is (10 (p - 1) + x, y).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gamecert.fuzz.reports.pictures.svg import (
    action_mark,
    caption_lines,
    circle,
    diff_mark,
    document,
    player_colour,
    rect,
    text,
)

JSON = Any
Cell = tuple[int, int]
SIZE = 16  # pixels per square
GRID = 9
STRIDE = GRID + 1  # a gap of one square between kingdoms
TERRAIN = {"c": "#e8c547", "f": "#2e6b34", "g": "#8fcf5a", "l": "#3f83c9", "w": "#8b7a5a",
           "m": "#5a4a3a", "*": "#9a9a9a", "_": "#f6f3ec"}


def _squares(state: JSON) -> Iterator[tuple[Cell, str, int]]:
    """(cell, terrain letter, crowns) of every square of every kingdom."""
    for p, grid in enumerate(state["grids"]):
        if not isinstance(grid, list) or len(grid) != GRID:
            raise ValueError(f"player {p + 1}'s grid is not {GRID} rows")
        for y, row in enumerate(grid):
            if not isinstance(row, str) or len(row) != 2 * GRID:
                raise ValueError(f"player {p + 1}'s row {y} is not {GRID} squares")
            for x in range(GRID):
                terrain, crowns = row[2 * x], row[2 * x + 1]
                if terrain not in TERRAIN or not crowns.isdigit():
                    raise ValueError(f"square {row[2 * x:2 * x + 2]!r} at ({x}, {y})")
                yield (p * STRIDE + x, y), terrain, int(crowns)


def draw(state: JSON, highlight: frozenset[Cell], marks: frozenset[Cell]) -> str:
    squares = list(_squares(state))
    players = len(state["grids"])
    w, h = (players * STRIDE - 1) * SIZE, GRID * SIZE + 18
    body: list[str] = []
    for p in range(players):
        body.append(text(p * STRIDE * SIZE + 2, 12, f"player {p + 1}",
                         fill=player_colour(p + 1), font_size=12))
    for (x, y), terrain, crowns in squares:
        px, py = x * SIZE, y * SIZE + 18
        body.append(rect(px + 0.5, py + 0.5, SIZE - 1, SIZE - 1, fill=TERRAIN[terrain]))
        for k in range(crowns):
            body.append(circle(px + 4 + 4 * k, py + 4, 1.6, fill="#ffd700", stroke="#333",
                               stroke_width=0.4))
    for x, y in sorted(marks):
        body.append(action_mark(x * SIZE, y * SIZE + 18, SIZE, SIZE, (x, y)))
    for x, y in sorted(highlight):
        body.append(diff_mark(x * SIZE - 1, y * SIZE + 17, SIZE + 2, SIZE + 2, (x, y)))
    line = [f"turn {state.get('turn')}, phase {state.get('phase')}, to move "
            f"{state.get('to_move')}"]
    line.append("line: " + ", ".join(
        f"{t.get('tile')}" + (f" (P{t.get('player')})" if t.get("player") else "")
        for t in state.get("line") or [] if isinstance(t, dict)))
    if state.get("result"):
        line.append(f"over: {state['result']}")
    body += caption_lines(h + 2, line)
    return document(w, h + 6 + 16 * len(line), body, f"Kingdomino, turn {state.get('turn')}",
                    max_width=w + 2 * SIZE, pad=SIZE)


def changed_cells(reference: JSON, engine: JSON) -> set[Cell]:
    a = {cell: (t, c) for cell, t, c in _squares(reference)}
    b = {cell: (t, c) for cell, t, c in _squares(engine)}
    return {cell for cell in a.keys() | b.keys() if a.get(cell) != b.get(cell)}


def action_cells(state: JSON, action: JSON) -> set[Cell]:
    put = action.get("put")
    player = state.get("to_move")
    if action.get("type") != "play" or not isinstance(put, list) or not isinstance(player, int):
        return set()
    return {((player - 1) * STRIDE + int(put[0]), int(put[1]))}
