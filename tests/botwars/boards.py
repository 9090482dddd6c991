"""Positions for the Bot Wars tests: canonical states built from small pictures, and the
seed's own battle pictures."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

ROWS = COLS = 20
SEED_NAME = "002_e55711a21a5b5c11.txt"


def seed_text() -> str | None:
    """The seed, from shared/ beside the repository (or $GAMECERT_SHARED)."""
    base = os.environ.get("GAMECERT_SHARED")
    shared = Path(base) if base else Path(__file__).resolve().parents[3] / "shared"
    path = shared / "seeds" / SEED_NAME
    return path.read_text("utf-8") if path.is_file() else None


_PICTURE_LINE = re.compile(r"^\s*([.12x]+)\s+(?:>\s+)?([.12x]+)\s*$")


def seed_pictures(text: str) -> list[tuple[list[str], list[str]]]:
    """Every 'before  >  after' picture in the text, as (before rows, after rows)."""
    out: list[tuple[list[str], list[str]]] = []
    block: list[tuple[str, str]] = []
    for line in [*text.splitlines(), ""]:
        hit = _PICTURE_LINE.match(line)
        if hit:
            block.append((hit.group(1), hit.group(2)))
            continue
        if block:
            out.append(([a for a, _ in block], [b for _, b in block]))
            block = []
    return out


def place(rows: list[str], top: int, left: int, grid: str | None = None) -> str:
    """Put a picture on the field with its top-left corner at (top, left)."""
    cells = list(grid or "." * (ROWS * COLS))
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch != ".":
                cells[(top + r) * COLS + left + c] = ch
    return "".join(cells)


def put(grid: str, **squares: str) -> str:
    cells = list(grid)
    for key, ch in squares.items():
        cells[int(key.lstrip("s"))] = ch
    return "".join(cells)


def state(grid: str | None = None, phase: str = "p2", pending: list[dict[str, int]] | None = None,
          turns: int = 10, energy: tuple[int, int] = (0, 0),
          razed: tuple[bool, bool] = (False, False), profile: str = "standard") -> dict[str, Any]:
    return {
        "game": "botwars", "profile": profile, "rows": ROWS, "cols": COLS,
        "grid": grid or "." * (ROWS * COLS),
        "p1": {"energy": energy[0], "spawn": 21, "spawnDisabled": razed[0],
               "disqualified": False},
        "p2": {"energy": energy[1], "spawn": 378, "spawnDisabled": razed[1],
               "disqualified": False},
        "maxTurns": 200, "turnsElapsed": turns, "phase": phase,
        "pending": (pending or []) if phase == "p2" else None,
        "winner": None, "endReason": None,
    }


def moves(*pairs: tuple[int, int]) -> dict[str, Any]:
    return {"type": "moves", "moves": [{"from": f, "to": t} for f, t in pairs]}
