"""Small helpers for writing SVG text by hand: escaping, elements, the document.

Everything drawn may come from an engine under test, so every text and attribute value goes
through `esc`. This module knows nothing about games.
"""

from __future__ import annotations

from html import escape

# Players' colours, chosen to stay apart from the red of a highlighted difference.
PLAYER_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b")
DIFF_COLOUR = "#e00000"
ACTION_COLOUR = "#111111"


def esc(value: object) -> str:
    """Text safe inside an element and inside a double-quoted attribute (XML and HTML)."""
    return escape(str(value), quote=True)


def player_colour(player: int) -> str:
    return PLAYER_COLOURS[(player - 1) % len(PLAYER_COLOURS)]


def attrs(**values: object) -> str:
    """Attributes in keyword order; a trailing underscore is dropped, `_` becomes `-`."""
    return " ".join(f'{k.rstrip("_").replace("_", "-")}="{esc(v)}"'
                    for k, v in values.items() if v is not None)


def rect(x: float, y: float, w: float, h: float, **more: object) -> str:
    return f'<rect {attrs(x=_n(x), y=_n(y), width=_n(w), height=_n(h), **more)}/>'


def circle(cx: float, cy: float, r: float, **more: object) -> str:
    return f'<circle {attrs(cx=_n(cx), cy=_n(cy), r=_n(r), **more)}/>'


def line(x1: float, y1: float, x2: float, y2: float, **more: object) -> str:
    return f'<line {attrs(x1=_n(x1), y1=_n(y1), x2=_n(x2), y2=_n(y2), **more)}/>'


def polygon(points: list[tuple[float, float]], **more: object) -> str:
    pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    return f'<polygon {attrs(points=pts, **more)}/>'


def path(d: str, **more: object) -> str:
    more.setdefault("fill", "none")
    return f'<path {attrs(d=d, **more)}/>'


def text(x: float, y: float, content: object, **more: object) -> str:
    return f'<text {attrs(x=_n(x), y=_n(y), **more)}>{esc(content)}</text>'


def diff_mark(x: float, y: float, w: float, h: float, cell: tuple[int, int]) -> str:
    """The red outline of a square whose content differs between the two states."""
    return rect(x, y, w, h, class_="diff", data_cell=f"{cell[0]},{cell[1]}", fill="none",
                stroke=DIFF_COLOUR, stroke_width=3)


def extent(width: int, height: int, cells: frozenset[tuple[int, int]],
           limit: int = 256) -> tuple[int, int]:
    """The squares to draw: the board, grown to take in highlighted squares beyond it (a
    square one state has and the other lacks is drawn, as missing, in both)."""
    inside = [(x, y) for x, y in cells if 0 <= x < limit and 0 <= y < limit]
    return (max([width] + [x + 1 for x, _ in inside]),
            max([height] + [y + 1 for _, y in inside]))


def missing_square(x: int, y: int, size: float) -> str:
    """A square this state does not have."""
    return rect(x * size, y * size, size, size, class_="missing", fill="#c9c9c9",
                stroke="#999999", stroke_width=0.5)


def diff_ring(cx: float, cy: float, r: float) -> str:
    """A faint red ring around a differing square, so one small square is found at once."""
    return circle(cx, cy, r, class_="diff-ring", fill="none", stroke=DIFF_COLOUR,
                  stroke_width=1.5, stroke_opacity=0.55)


def action_mark(x: float, y: float, w: float, h: float, cell: tuple[int, int]) -> str:
    """The dashed outline of a square the failing action names."""
    return rect(x, y, w, h, class_="action", data_cell=f"{cell[0]},{cell[1]}", fill="none",
                stroke=ACTION_COLOUR, stroke_width=2, stroke_dasharray="4 3")


def document(width: float, height: float, body: list[str], title: str,
             max_width: float = 560, pad: float = 4) -> str:
    """A standalone SVG element, scaled down to `max_width` pixels when wider."""
    # a margin (`pad` on every side), so outlines on the edge squares are not cut off
    full_w, full_h = width + 2 * pad, height + 2 * pad
    scale = min(full_w, max_width) / full_w
    head = attrs(viewBox=f"{-pad} {-pad} {_n(full_w)} {_n(full_h)}",
                 width=_n(round(full_w * scale, 1)), height=_n(round(full_h * scale, 1)),
                 role="img")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" {head}>'
            f"<title>{esc(title)}</title>" + "".join(body) + "</svg>")


def caption_lines(y0: float, lines: list[str], size: int = 12) -> list[str]:
    return [text(4, y0 + (i + 1) * (size + 4), ln, font_size=size, font_family="sans-serif")
            for i, ln in enumerate(lines)]


def _n(value: float) -> str:
    """A number written short: 12 rather than 12.0."""
    return f"{value:.1f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)
