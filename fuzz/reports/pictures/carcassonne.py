"""Carcassonne boards as SVG: each placed tile drawn from its edges and features in the tile
catalogue (spec/tiles/carcassonne.json), turned by its rotation: fields green, towns tan
(a banner as a blue shield), roads white, the river blue, monasteries as red-brown chapels;
meeples as discs in their player's colour on the spot they claim; scores below. Draws a
canonical state (schemas/carcassonne-state.schema.json); judges nothing."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

from gamecert.fuzz.reports.pictures.svg import (
    action_mark,
    caption_lines,
    circle,
    diff_mark,
    document,
    path,
    player_colour,
    polygon,
    rect,
    text,
)
from gamecert.reference_engine.carcassonne.tiles import (
    TILES_RESOURCE,
    TileKind,
    TileSet,
    parse_tiles,
)

JSON = Any
Cell = tuple[int, int]
T = 56  # pixels per tile
FIELD, TOWN, ROAD, RIVER = "#8fc46a", "#c9a46a", "#fbfaf5", "#3b8fd8"
CHAPEL, BANNER, EMPTY = "#a0462d", "#1f4fbf", "#efece4"
# where on a tile (as fractions) each side's midpoint and each claim spot lie
MIDPOINTS = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))
CORNERS = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))  # side s runs CORNERS[s]..[s+1]
SPOTS = {"top": (0.5, 0.2), "right": (0.8, 0.5), "bottom": (0.5, 0.8), "left": (0.2, 0.5),
         "monastery": (0.5, 0.5)}
SPOT_INDEX = {"top": 0, "right": 1, "bottom": 2, "left": 3}


def _cell(value: JSON) -> Cell:
    return int(value[0]), int(value[1])


@cache
def _tiles() -> TileSet:
    # Read through the installed package name: the engine's load_tiles asks for the
    # top-level package "spec", which exists only when gamecert runs from its source folder.
    ref = resources.files("gamecert.spec").joinpath(TILES_RESOURCE)
    return parse_tiles(ref.read_text("utf-8"), f"spec/{TILES_RESOURCE}")


def _tile_kind(tile_id: str) -> TileKind | None:
    try:
        return _tiles().get(tile_id)
    except KeyError:
        return None


def _tile(kind: TileKind | None, tile_id: str, rotation: int, ox: float, oy: float) -> list[str]:
    """One tile at pixel offset (ox, oy), turned clockwise by `rotation` quarter turns."""
    def at(fx: float, fy: float) -> tuple[float, float]:
        return ox + fx * T, oy + fy * T

    out = [rect(ox, oy, T, T, fill=FIELD, stroke="#5d7f45", stroke_width=0.5)]
    if kind is None:  # an id our catalogue lacks: say so on the square
        out.append(rect(ox, oy, T, T, fill="#bbbbbb"))
        out.append(text(ox + 4, oy + T / 2, f"? {tile_id}", font_size=11,
                        font_family="sans-serif"))
        return out
    turned = kind.rotated(rotation % 4)

    def inward(side: int, depth: float) -> tuple[float, float]:
        """The point `depth` (a fraction of the tile) in from the middle of `side`."""
        mx, my = MIDPOINTS[side]
        return mx + (0.5 - mx) * 2 * depth, my + (0.5 - my) * 2 * depth

    for f in turned.features:
        if f.kind != "city":
            continue
        if len(f.sides) == 1:  # a cap along one side: a trapezoid, short of the corners
            s = f.sides[0]
            (ax, ay), (bx, by) = CORNERS[s], CORNERS[(s + 1) % 4]
            ix, iy = inward(s, 0.28)
            dx, dy = (bx - ax) * 0.3, (by - ay) * 0.3
            shape = [(ax, ay), (bx, by), (ix + dx, iy + dy), (ix - dx, iy - dy)]
        else:  # a town joining sides: their whole edges, bowing in where a field side is
            shape = []
            for s in range(4):
                if s in f.sides:
                    shape += [CORNERS[s], CORNERS[(s + 1) % 4]]
                else:
                    shape.append(inward(s, 0.22))
        out.append(polygon([at(x, y) for x, y in shape], fill=TOWN, stroke="#7a5a2a",
                           stroke_width=0.8, class_="town"))
        if f.banner:
            bx, by = at(*inward(f.sides[0], 0.2))
            out.append(polygon([(bx - 4, by - 4), (bx + 4, by - 4), (bx + 4, by + 1),
                                (bx, by + 5), (bx - 4, by + 1)], fill=BANNER, class_="banner"))
    ends = sum(1 for f in turned.features if f.kind == "road" and len(f.sides) == 1)
    has_town = any(f.kind == "city" for f in turned.features)
    has_river = any(f.kind == "river" for f in turned.features)
    for f in turned.features:
        if f.kind not in ("road", "river"):
            continue
        colour, width, edge = ((ROAD, 5, "#555") if f.kind == "road" else
                               (RIVER, 7, "#1d5f9c"))
        a = at(*MIDPOINTS[f.sides[0]])
        if len(f.sides) == 2 and (f.sides[1] - f.sides[0]) % 2:  # a curve round a corner
            b, c = at(*MIDPOINTS[f.sides[1]]), at(0.5, 0.5)
            d = f"M{a[0]:g},{a[1]:g} Q{c[0]:g},{c[1]:g} {b[0]:g},{b[1]:g}"
        elif len(f.sides) == 2:  # straight through
            b = at(*MIDPOINTS[f.sides[1]])
            d = f"M{a[0]:g},{a[1]:g} L{b[0]:g},{b[1]:g}"
        else:
            # one side: the road ends at a junction, a chapel, the river, the spring or
            # lake in the middle, or, on a tile with a town and nothing else, at its gate
            gate = f.kind == "road" and ends == 1 and has_town and not has_river
            b = at(*inward(f.sides[0], 0.3)) if gate else at(0.5, 0.5)
            d = f"M{a[0]:g},{a[1]:g} L{b[0]:g},{b[1]:g}"
        out.append(path(d, stroke=edge, stroke_width=width + 2))
        out.append(path(d, stroke=colour, stroke_width=width, class_=f.kind))
        if len(f.sides) == 1 and not turned.monastery:
            out.append(circle(b[0], b[1], 6 if f.kind == "river" else 3.5,
                              fill=RIVER if f.kind == "river" else "#555"))
    if turned.monastery:
        cx, cy = at(0.5, 0.5)
        out.append(rect(cx - 8, cy - 7, 16, 14, fill=CHAPEL, stroke="#5a2414", class_="chapel"))
        out.append(polygon([(cx - 9, cy - 7), (cx, cy - 13), (cx + 9, cy - 7)], fill=CHAPEL,
                           stroke="#5a2414"))
    out.append(text(ox + 2, oy + T - 3, tile_id, font_size=8, font_family="sans-serif",
                    fill="#1d3010"))
    return out


def draw(state: JSON, highlight: frozenset[Cell], marks: frozenset[Cell]) -> str:
    tiles = [(_cell(t["at"]), str(t["tile"]), int(t["rotation"])) for t in state["board"]]
    cells = [c for c, _, _ in tiles] + list(highlight) + list(marks)
    if not cells:
        cells = [(0, 0)]
    x0, x1 = min(c[0] for c in cells) - 1, max(c[0] for c in cells) + 1
    y0, y1 = min(c[1] for c in cells) - 1, max(c[1] for c in cells) + 1
    if (x1 - x0) * (y1 - y0) > 200 * 200:
        raise ValueError(f"board spans {x1 - x0 + 1} x {y1 - y0 + 1} cells")
    w, h = (x1 - x0 + 1) * T, (y1 - y0 + 1) * T

    def origin(cell: Cell) -> tuple[float, float]:
        return (cell[0] - x0) * T, (cell[1] - y0) * T

    body = [rect(0, 0, w, h, fill=EMPTY)]
    for cell, tile_id, rotation in tiles:
        body += _tile(_tile_kind(tile_id), tile_id, rotation, *origin(cell))
    for m in state.get("meeples") or []:
        ox, oy = origin(_cell(m["at"]))
        fx, fy = SPOTS.get(str(m["on"]), (0.5, 0.5))
        player = int(m["player"])
        body.append(circle(ox + fx * T, oy + fy * T, 6.5, fill=player_colour(player),
                           stroke="#000", stroke_width=1.2, class_=f"meeple p{player}"))
    if state.get("placed"):
        ox, oy = origin(_cell(state["placed"]))
        body.append(rect(ox + 2, oy + 2, T - 4, T - 4, fill="none", stroke="#fff",
                         stroke_width=1.5, stroke_dasharray="2 2", class_="placed"))
    for cell in sorted(marks):
        body.append(action_mark(*origin(cell), T, T, cell))
    for cell in sorted(highlight):
        ox, oy = origin(cell)
        body.append(diff_mark(ox + 1, oy + 1, T - 2, T - 2, cell))
    players = int(state.get("players") or len(state.get("scores") or []))
    scores, supply = state.get("scores") or [], state.get("supply") or []
    lines = [f"phase {state.get('phase')}, step {state.get('step')}, to move "
             f"{state.get('to_move')}; {len(tiles)} tiles placed, deck "
             f"{sum((state.get('deck') or {}).values())}, river "
             f"{sum((state.get('river_pile') or {}).values())}"]
    hands = state.get("hands") or []
    for p in range(1, min(players, 5) + 1):
        hand = " ".join(map(str, hands[p - 1])) if p <= len(hands) else "?"
        lines.append(f"P{p}: {scores[p - 1] if p <= len(scores) else '?'} points, "
                     f"{supply[p - 1] if p <= len(supply) else '?'} meeples left, "
                     f"hand {hand or '-'}")
    if state.get("result"):
        r = state["result"]
        lines.append(f"over ({r.get('reason')}), winners {r.get('winners')}")
    body += caption_lines(h + 2, lines)
    return document(max(w, 400), h + 6 + 16 * len(lines), body,
                    f"Carcassonne board, {len(tiles)} tiles", max_width=520)


def _contents(state: JSON) -> dict[Cell, tuple[Any, ...]]:
    out: dict[Cell, tuple[Any, ...]] = {}
    for t in state["board"]:
        out[_cell(t["at"])] = (t["tile"], t["rotation"])
    for m in state.get("meeples") or []:
        cell = _cell(m["at"])
        out[cell] = (*out.get(cell, ()), (m["on"], m["player"]))
    return out


def changed_cells(reference: JSON, engine: JSON) -> set[Cell]:
    a, b = _contents(reference), _contents(engine)
    return {cell for cell in a.keys() | b.keys() if a.get(cell) != b.get(cell)}


def action_cells(state: JSON, action: JSON) -> set[Cell]:
    if action.get("type") == "place":
        return {_cell(action["at"])}
    if action.get("type") == "claim" and state.get("placed"):
        return {_cell(state["placed"])}
    return set()
