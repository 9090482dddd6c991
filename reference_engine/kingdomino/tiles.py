"""The Kingdomino tile data (`spec/tiles/kingdomino.json`): loading and checking it.

A square is two characters as the bot protocol writes it: a terrain letter and a crown
count ("c1"). A tile list is the data file's `tiles` with one of its `variants` applied.
This module reads the data file only; it knows nothing of placement or scoring.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

TILES_RESOURCE = "tiles/kingdomino.json"
TERRAINS = "cfglwm"
SQUARE = re.compile(r"[cfglwm][0-3]")
Tile = tuple[str, str]  # first square, second square


class TileDataError(Exception):
    """The tile data file is malformed; the message names the file and the place."""


def parse_tiles(text: str, path: str) -> dict[str, dict[int, Tile]]:
    """Every tile list of the data file, by variant name: {variant: {id: (first, second)}}."""
    from gamecert.schemas import first_error

    try:
        doc: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TileDataError(f"{path}: line {exc.lineno}: not valid JSON: {exc.msg}") from None
    problem = first_error("kingdomino-tiles", doc)
    if problem:
        raise TileDataError(f"{path}: {problem}")
    base: dict[int, Tile] = {}
    for i, t in enumerate(doc["tiles"]):
        if t["id"] in base:
            raise TileDataError(f"{path}: at tiles[{i}].id: duplicate tile id {t['id']}")
        base[t["id"]] = (t["squares"][0], t["squares"][1])
    if sorted(base) != list(range(1, len(base) + 1)):
        raise TileDataError(f"{path}: tile ids must be 1 to {len(base)} without gaps")
    lists = {}
    for name, changes in doc["variants"].items():
        tiles = dict(base)
        for key, squares in changes.items():
            if not key.isdigit() or int(key) not in base:
                raise TileDataError(f"{path}: at variants.{name}.{key}: no tile with that id")
            tiles[int(key)] = (squares[0], squares[1])
        lists[name] = tiles
    return lists


@cache
def tile_lists() -> dict[str, dict[int, Tile]]:
    ref = resources.files("gamecert.spec").joinpath(TILES_RESOURCE)
    return parse_tiles(ref.read_text("utf-8"), f"spec/{TILES_RESOURCE}")


def tiles_for(variant: str) -> dict[int, Tile]:
    """The tile list of a KD-TILES variant."""
    lists = tile_lists()
    if variant not in lists:
        raise TileDataError(f"spec/{TILES_RESOURCE}: no tile list {variant!r} "
                            f"(known: {', '.join(sorted(lists))})")
    return lists[variant]
