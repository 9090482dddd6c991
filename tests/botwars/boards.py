"""Positions for the Bot Wars tests: canonical states built from small pictures, and the
rules text's own battle pictures (from tests/botwars/data, never from a source document)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROWS = COLS = 20
# The rules text's four battle examples, typed by hand into our own format (the tests never
# read a source document: a clone of the repository must be enough).
PICTURES_FILE = Path(__file__).resolve().parent / "data" / "battle_pictures.json"


def seed_pictures() -> list[tuple[list[str], list[str]]]:
    """The rules text's battle pictures, as (before rows, after rows), in its order."""
    doc = json.loads(PICTURES_FILE.read_text("utf-8"))
    return [(list(p["before"]), list(p["after"])) for p in doc["pictures"]]


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
