"""Board pictures (SVG) of canonical states, for the HTML report.

Convention, as in `fuzz.games`: `fuzz.reports.pictures.<game>` is one module per game with the same
shape:

- `draw(state, highlight, marks) -> str`: the state as one standalone `<svg>` element; the
  squares in `highlight` get a red outline (`class="diff"`), those in `marks` a dashed one
  (`class="action"`).
- `changed_cells(reference, engine) -> set of cells`: the squares whose content differs.
- `action_cells(state, action) -> set of cells`: the squares an action names.
- optionally `square_label(state, field, index) -> str | None`: a name such as `(x 5, y 1)`
  for position `index` of a string-valued board field, for the textual diff.

Cells are `(x, y)` pairs. The states drawn may come from an engine under test, so malformed
ones must never raise here: `svg_for` draws a plain placeholder instead. Nothing here runs
an engine or reads files other than gamecert's own data.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from gamecert.fuzz.reports.pictures.svg import caption_lines, document

JSON = Any
Cell = tuple[int, int]
# what a malformed state makes drawing code raise
MALFORMED = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def _module(game: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"gamecert.fuzz.reports.pictures.{game}")
    except ModuleNotFoundError:
        return None


def can_draw(game: str) -> bool:
    return _module(game) is not None


def svg_for(game: str, state: JSON, highlight: Iterable[Cell] = (),
            marks: Iterable[Cell] = ()) -> str:
    """`state` drawn as an SVG element; a placeholder for a game without drawings or for a
    state too malformed to draw."""
    module = _module(game)
    if module is None:
        return placeholder(f"no board drawing for {game!r} yet")
    try:
        picture: str = module.draw(state, frozenset(highlight), frozenset(marks))
    except (*MALFORMED, ImportError, OSError) as exc:  # also: game data that will not load
        return placeholder(f"this state cannot be drawn: {type(exc).__name__}: {exc}")
    return picture


def changed_cells(game: str, reference: JSON, engine: JSON) -> frozenset[Cell]:
    module = _module(game)
    if module is None or engine is None:
        return frozenset()
    try:
        return frozenset(module.changed_cells(reference, engine))
    except MALFORMED:
        return frozenset()


def action_cells(game: str, state: JSON, action: JSON) -> frozenset[Cell]:
    module = _module(game)
    if module is None or not isinstance(action, dict):
        return frozenset()
    try:
        return frozenset(module.action_cells(state, action))
    except MALFORMED:
        return frozenset()


def placeholder(message: str) -> str:
    return document(360, 40, caption_lines(0, [message[:80]]), message, max_width=360)


def state_diff(game: str, reference: JSON, engine: JSON,
               limit: int = 40) -> list[tuple[str, str, str]]:
    """The fields that differ, as (path, reference's value, engine's value), at most
    `limit` of them (then one line saying how many more)."""
    module = _module(game)
    label = getattr(module, "square_label", None)
    out: list[tuple[str, str, str]] = []
    _diff(reference, engine, "", out, lambda f, i: _label(label, reference, f, i))
    if len(out) > limit:
        more = len(out) - limit
        out = [*out[:limit], ("…", f"{more} more differences", "")]
    return out


def _label(label: Any, state: JSON, field: str, index: int) -> str:
    if label is None:
        return ""
    try:
        name = label(state, field, index)
    except MALFORMED:
        return ""
    return f" {name}" if name else ""


def short(value: JSON, size: int = 120) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= size else text[: size - 1] + "…"


def _diff(a: JSON, b: JSON, path: str, out: list[tuple[str, str, str]],
          label: Any) -> None:
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            sub = f"{path}.{key}" if path else str(key)
            if key not in a or key not in b:
                out.append((sub, short(a[key]) if key in a else "(missing)",
                            short(b[key]) if key in b else "(missing)"))
            else:
                _diff(a[key], b[key], sub, out, label)
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                _diff(x, y, f"{path}[{i}]", out, label)
            return
        # lengths differ: say which items are on one side only, not a shifted comparison
        keys_a = [short(x) for x in a]
        keys_b = [short(x) for x in b]
        out.append((f"{path} (length)", str(len(a)), str(len(b))))
        for k in keys_a:
            if k not in keys_b:
                out.append((f"{path} item", k, "(absent)"))
        for k in keys_b:
            if k not in keys_a:
                out.append((f"{path} item", "(absent)", k))
        return
    if isinstance(a, str) and isinstance(b, str) and len(a) == len(b) and len(a) > 40:
        field = path.rsplit(".", 1)[-1]
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                out.append((f"{path}[{i}]{label(field, i)}", repr(x), repr(y)))
        return
    if isinstance(a, str) and isinstance(b, str) and max(len(a), len(b)) > 40:
        out.append((path, f"{len(a)} characters: {short(a, 60)}",
                    f"{len(b)} characters: {short(b, 60)}"))
        return
    out.append((path or "(state)", short(a), short(b)))
