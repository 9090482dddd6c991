"""Bot Wars boards as SVG: botlets in their player's colour, energy as yellow diamonds,
botlets that died in the last turn as crosses, spawn squares outlined (struck through once
razed), p1's pending moves as arrows. Draws a canonical state
(schemas/botwars-state.schema.json); judges nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gamecert.fuzz.reports.pictures.svg import (
    action_mark,
    caption_lines,
    circle,
    diff_mark,
    diff_ring,
    document,
    extent,
    line,
    missing_square,
    player_colour,
    polygon,
    rect,
)

JSON = Any
Cell = tuple[int, int]
SIZE = 20  # pixels per square
EMPTY = "#f6f3ec"
GRID = "#ddd8cc"
ENERGY = "#f2c200"


def _grid(state: JSON) -> str:
    grid = state["grid"]
    if not isinstance(grid, str) or set(grid) - set(".12*xX"):
        raise ValueError("the grid is not a string of . 1 2 * x X")
    return grid


def _squares(state: JSON) -> Iterator[tuple[Cell, str]]:
    cols = int(state["cols"])
    for i, ch in enumerate(_grid(state)):
        yield (i % cols, i // cols), ch


def _cell(state: JSON, square: int) -> Cell:
    cols = int(state["cols"])
    return square % cols, square // cols


def _centre(cell: Cell) -> tuple[float, float]:
    return cell[0] * SIZE + SIZE / 2, cell[1] * SIZE + SIZE / 2


def draw(state: JSON, highlight: frozenset[Cell], marks: frozenset[Cell]) -> str:
    rows, cols = int(state["rows"]), int(state["cols"])
    if not (0 < rows <= 256 and 0 < cols <= 256):
        raise ValueError(f"grid of {rows} x {cols} squares")
    all_w, all_h = extent(cols, rows, highlight)
    w, h = all_w * SIZE, all_h * SIZE
    body = [rect(0, 0, cols * SIZE, rows * SIZE, fill=EMPTY)]
    body += [missing_square(x, y, SIZE) for x, y in sorted(highlight)
             if (x >= cols or y >= rows) and x < all_w and y < all_h]
    body += [line(x * SIZE, 0, x * SIZE, h, stroke=GRID, stroke_width=0.5) for x in range(1, cols)]
    body += [line(0, y * SIZE, w, y * SIZE, stroke=GRID, stroke_width=0.5) for y in range(1, rows)]
    for p in (1, 2):
        player = state[f"p{p}"]
        x, y = _cell(state, int(player["spawn"]))
        body.append(rect(x * SIZE + 1, y * SIZE + 1, SIZE - 2, SIZE - 2, fill="none",
                         stroke=player_colour(p), stroke_width=2, class_=f"spawn p{p}"))
        if player.get("spawnDisabled"):
            body.append(line(x * SIZE + 2, y * SIZE + SIZE - 2, x * SIZE + SIZE - 2, y * SIZE + 2,
                             stroke="#000", stroke_width=2))
    counts = {"1": 0, "2": 0, "*": 0}
    for cell, ch in _squares(state):
        if cell[1] >= rows:
            continue
        cx, cy = _centre(cell)
        r = SIZE / 2 - 3
        if ch in "12":
            counts[ch] += 1
            body.append(circle(cx, cy, r, fill=player_colour(int(ch)), class_=f"botlet p{ch}"))
        elif ch == "*":
            counts[ch] += 1
            body.append(polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                                fill=ENERGY, stroke="#8a6d00", class_="energy"))
        elif ch in "xX":
            colour = player_colour(1 if ch == "x" else 2)
            body.append(line(cx - r, cy - r, cx + r, cy + r, stroke=colour, stroke_width=2.5))
            body.append(line(cx - r, cy + r, cx + r, cy - r, stroke=colour, stroke_width=2.5))
    for move in state.get("pending") or []:
        (ax, ay), (bx, by) = _centre(_cell(state, move["from"])), _centre(_cell(state, move["to"]))
        body.append(line(ax, ay, bx, by, stroke="#000", stroke_width=1.5, class_="pending"))
        body.append(circle(bx, by, 2.5, fill="#000"))
    for x, y in sorted(marks):
        if 0 <= x < cols and 0 <= y < rows:
            body.append(action_mark(x * SIZE, y * SIZE, SIZE, SIZE, (x, y)))
    for x, y in sorted(highlight):
        if 0 <= x < all_w and 0 <= y < all_h:
            body.append(diff_mark(x * SIZE - 1, y * SIZE - 1, SIZE + 2, SIZE + 2, (x, y)))
            if len(highlight) <= 12:
                body.append(diff_ring((x + 0.5) * SIZE, (y + 0.5) * SIZE, SIZE * 1.4))
    lines = [f"turn {state.get('turnsElapsed')} of {state.get('maxTurns')}, phase "
             f"{state.get('phase')}; energy squares {counts['*']}"]
    for p in (1, 2):
        player = state[f"p{p}"]
        flags = [s for s, on in (("spawn razed", player.get("spawnDisabled")),
                                 ("disqualified", player.get("disqualified"))) if on]
        lines.append(f"p{p}: {counts[str(p)]} botlets, energy {player.get('energy')}"
                     + (f" ({', '.join(flags)})" if flags else ""))
    if state.get("phase") == "over":
        lines.append(f"over ({state.get('endReason')}), winner {state.get('winner') or 'none'}")
    if len(_grid(state)) != rows * cols:
        lines.append(f"the grid has {len(_grid(state))} squares, not {rows} x {cols}")
    body += caption_lines(h + 2, lines)
    return document(w, h + 6 + 16 * len(lines), body,
                    f"Bot Wars grid, turn {state.get('turnsElapsed')}",
                    max_width=w + 2 * SIZE, pad=SIZE)


def changed_cells(reference: JSON, engine: JSON) -> set[Cell]:
    a, b = dict(_squares(reference)), dict(_squares(engine))
    cells = {cell for cell in a.keys() | b.keys() if a.get(cell) != b.get(cell)}
    for p in ("p1", "p2"):
        ra, rb = reference[p], engine[p]
        if (ra["spawn"], ra["spawnDisabled"]) != (rb["spawn"], rb["spawnDisabled"]):
            cells |= {_cell(reference, ra["spawn"]), _cell(engine, rb["spawn"])}
    return cells


def action_cells(state: JSON, action: JSON) -> set[Cell]:
    squares = [m[k] for m in action.get("moves") or [] for k in ("from", "to")]
    squares += list(action.get("at") or [])
    size = int(state["rows"]) * int(state["cols"])
    return {_cell(state, int(s)) for s in squares if 0 <= int(s) < size}


def square_label(state: JSON, field: str, index: int) -> str | None:
    if field != "grid":
        return None
    cols = int(state["cols"])
    return f"(row {index // cols}, col {index % cols})"
