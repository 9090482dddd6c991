"""The Carcassonne tile catalogue as the oracles read it, and the facts of one placed tile:
its edges, its roads, towns and monasteries (`parts`), its fields (`field_parts`), the
river's sides, what a meeple's spot names; the tile sets a profile deals, and how many of
each tile a state holds (`tile_totals`).

Reads `spec/tiles/carcassonne.json` and canonical JSON only, never the reference engine.
Knows one tile at a time: joining tiles into features is `shapes`' and `board`'s.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

JSON = Any
Cell = tuple[int, int]
SIDES = ("top", "right", "bottom", "left")
HALVES = ("top1", "top2", "right1", "right2", "bottom1", "bottom2", "left1", "left2")
ENCLOSED = "field"  # a field touching no edge, enclosed by the tile's towns (TO17)
FIELD_SPOTS = (*HALVES, ENCLOSED)  # where a farmer stands
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
AROUND = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0)]


@dataclass(frozen=True)
class TileInfo:
    id: str
    set: str
    role: str | None
    count: int
    edges: tuple[str, ...]
    features: tuple[tuple[str, tuple[int, ...], bool], ...]  # kind, sides, banner
    fields: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()  # halves, city features


@cache
def catalogue() -> dict[str, TileInfo]:
    text = resources.files("gamecert.spec").joinpath("tiles/carcassonne.json").read_text("utf-8")
    out = {}
    for t in json.loads(text)["tiles"]:
        feats = tuple((f["kind"], tuple(SIDES.index(s) for s in f.get("sides", [])),
                       bool(f.get("banner", False))) for f in t["features"])
        fields = tuple((tuple(HALVES.index(h) for h in f["halves"]), tuple(f["cities"]))
                       for f in t.get("fields", []))
        out[t["id"]] = TileInfo(t["id"], t["set"], t.get("role"), t["count"], tuple(t["edges"]),
                                feats, fields)
    return out


@cache
def tower_ids() -> frozenset[str]:
    """The Tower tiles of the catalogue."""
    return frozenset(tid for tid, info in catalogue().items() if info.set == "tower")


def deck_sets(profile: Any) -> tuple[str, ...]:
    """The tile sets of the land deck: the Tower tiles join it in the tower stage."""
    if profile.param("CARC-TOWER-TILES", "enabled"):
        return ("land", "tower")
    return ("land",)


def in_game(profile: Any, tile: str) -> int:
    """How many of `tile` the game under `profile` has (Tower tiles: none outside the tower
    stage)."""
    info = catalogue()[tile]
    return 0 if info.set == "tower" and "tower" not in deck_sets(profile) else info.count


def tower_start(profile: Any) -> dict[str, Any]:
    """The tower stage's keys of a crafted state with no tower built yet ({} otherwise)."""
    if "tower" not in deck_sets(profile):
        return {}
    n = int(profile.param("CARC-PLAYERS", "players"))
    floors = int(profile.param("CARC-TOWER-FLOORS", f"floors_{n}p"))
    return {"towers": [], "floors": [floors] * n, "prisoners": [[0] * n for _ in range(n)],
            "ransom_paid": False}


def edge(tile: str, rotation: int, side: int) -> str:
    return catalogue()[tile].edges[(side - rotation) % 4]


@cache  # the flood fill asks for the same few dozen (tile, rotation) pairs all the time
def parts(tile: str, rotation: int) -> tuple[tuple[str, frozenset[int], bool, str], ...]:
    """Roads, towns and monasteries of a placed tile: kind, board sides, banner, spot name."""
    out = []
    for kind, sides, banner in catalogue()[tile].features:
        if kind in ("river", "tower"):
            continue
        turned = frozenset((s + rotation) % 4 for s in sides)
        spot = SIDES[min(turned)] if turned else "monastery"
        out.append(("city" if kind == "city" else kind, turned, banner, spot))
    return tuple(out)


@cache
def field_parts(tile: str, rotation: int) -> tuple[tuple[frozenset[int], tuple[int, ...]], ...]:
    """Fields of a placed tile: board half-edges, and the `parts` indices of the towns each
    touches on this tile."""
    info = catalogue()[tile]
    part_of: dict[int, int] = {}
    for i, (kind, _, _) in enumerate(info.features):
        if kind not in ("river", "tower"):
            part_of[i] = len(part_of)
    return tuple((frozenset((h + 2 * rotation) % 8 for h in halves),
                  tuple(part_of[c] for c in cities)) for halves, cities in info.fields)


@cache
def _cloister_tiles() -> frozenset[str]:
    """The tiles with a part that `part_at` names "monastery" (on any rotation: whether a
    part has sides does not turn)."""
    return frozenset(tid for tid in catalogue()
                     if any(name == "monastery" for _, _, _, name in parts(tid, 0)))


_HERE_AND_AROUND = ((0, 0), *AROUND)


@lru_cache(maxsize=4096)  # what a meeple's spot names on a tile: for every meeple, often
def _part_at(tile: str, rotation: int, spot: str) -> int | None:
    return _part_at_plainly(tile, rotation, spot)


def _part_at_plainly(tile: str, rotation: int, spot: Any) -> int | None:
    for i, (_, sides, _, name) in enumerate(parts(tile, rotation)):
        if name == spot or (spot in SIDES and SIDES.index(spot) in sides):
            return i
    return None


def facing(half: int) -> int:
    """The neighbour's half-edge that touches `half` across their shared side."""
    return ((half + 4) % 8) ^ 1


def river_sides(tile: str, rotation: int) -> list[int]:
    for kind, sides, _ in catalogue()[tile].features:
        if kind == "river":
            return sorted((s + rotation) % 4 for s in sides)
    return []


_totals: list[tuple[JSON, dict[str, int]]] = []  # the last state counted, held: its id stays


def tile_totals(state: JSON) -> dict[str, int]:
    """How many of each tile the state holds anywhere. Shared by the oracles that count the
    same state (land and Tower tiles): do not change the answer."""
    if _totals and _totals[0][0] is state:
        return _totals[0][1]
    found = _count_tiles(state)
    _totals[:] = [(state, found)]
    return found


def _count_tiles(state: JSON) -> dict[str, int]:
    """The count `_count_tiles_plainly` makes, with C-level counting where the parts are
    lists (the same elements in the same order, so the same counts and the same error on a
    part that cannot be read)."""
    tiles = [b["tile"] for b in state["board"]]
    hands = state["hands"]
    if any(type(hand) is not list for hand in hands):
        return _count_tiles_plainly(state)  # a hand that is not a list: as first written
    for hand in hands:
        tiles += hand
    found = Counter(tiles)  # one count of board and hands, in the same order
    for pile in ("deck", "river_pile"):
        for tile, n in state[pile].items():
            found[tile] = found.get(tile, 0) + n
    discarded = state["discarded"]
    if type(discarded) is list:
        found.update(discarded)
    else:  # not a list (a dict: `update` would add its values; here each key counts one)
        for tile in discarded:
            found[tile] = found.get(tile, 0) + 1
    return found


def _count_tiles_plainly(state: JSON) -> dict[str, int]:
    found: dict[str, int] = {}

    def add(tile: str, n: int = 1) -> None:
        found[tile] = found.get(tile, 0) + n

    for b in state["board"]:
        add(b["tile"])
    for hand in state["hands"]:
        for tile in hand:
            add(tile)
    for pile in ("deck", "river_pile"):
        for tile, n in state[pile].items():
            add(tile, n)
    for tile in state["discarded"]:
        add(tile)
    return found
