"""The Carcassonne tile catalogue (`spec/tiles/carcassonne.json`): loading, checking, rotating.

Sides are numbered 0-3 clockwise from the top; half-edges 0-7 clockwise from the top side's
left half. Rotating a tile by r quarter turns clockwise moves side s to (s + r) % 4 and half h
to (h + 2r) % 8. Half h of a tile touches half `facing_half(h)` of the neighbour across its side.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from gamecert.schemas import first_error

SIDES = ("top", "right", "bottom", "left")
HALVES = ("top1", "top2", "right1", "right2", "bottom1", "bottom2", "left1", "left2")
ENCLOSED = "field"  # the spot of a field touching no edge (enclosed by the tile's towns: TO17)
FIELD_SPOTS = (*HALVES, ENCLOSED)
EDGE_KINDS = ("field", "road", "city", "river")
FEATURE_KINDS = ("road", "city", "monastery", "river", "tower")
TILES_RESOURCE = "tiles/carcassonne.json"


class TileCatalogueError(Exception):
    """The tile catalogue is malformed; the message names the file and the place."""


def rotate_side(side: int, rotation: int) -> int:
    return (side + rotation) % 4


def rotate_half(half: int, rotation: int) -> int:
    return (half + 2 * rotation) % 8


def facing_half(half: int) -> int:
    """The neighbour's half-edge that touches `half` across the shared side."""
    return ((half + 4) % 8) ^ 1


@dataclass(frozen=True)
class TileFeature:
    kind: str  # road, city, monastery, river, tower (a tower foundation)
    sides: tuple[int, ...]  # empty for a monastery or a tower
    banner: bool = False


@dataclass(frozen=True)
class TileField:
    halves: tuple[int, ...]
    cities: tuple[int, ...]  # indices into the tile's features


@dataclass(frozen=True)
class TileKind:
    id: str
    set: str
    role: str | None
    count: int
    name: str
    edges: tuple[str, str, str, str]
    features: tuple[TileFeature, ...]
    fields: tuple[TileField, ...]

    @property
    def banner(self) -> bool:
        return any(f.banner for f in self.features)

    @property
    def tower(self) -> bool:
        return any(f.kind == "tower" for f in self.features)

    @property
    def monastery(self) -> bool:
        return any(f.kind == "monastery" for f in self.features)

    def edge(self, side: int, rotation: int) -> str:
        """The kind of edge on board side `side` when the tile lies with `rotation`."""
        return self.edges[(side - rotation) % 4]

    def rotated(self, rotation: int) -> TileKind:
        """The same tile turned clockwise by `rotation` quarter turns, as a new unrotated kind."""
        r = rotation % 4
        edges = tuple(self.edges[(s - r) % 4] for s in range(4))
        feats = tuple(TileFeature(f.kind, tuple(sorted(rotate_side(s, r) for s in f.sides)),
                                  f.banner) for f in self.features)
        fields = tuple(TileField(tuple(sorted(rotate_half(h, r) for h in f.halves)), f.cities)
                       for f in self.fields)
        return TileKind(self.id, self.set, self.role, self.count, self.name,
                        edges, feats, fields)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TileSet:
    tiles: tuple[TileKind, ...]
    path: str

    def __iter__(self) -> Iterator[TileKind]:
        return iter(self.tiles)

    def get(self, tile_id: str) -> TileKind:
        for t in self.tiles:
            if t.id == tile_id:
                return t
        raise KeyError(tile_id)

    def index(self, tile_id: str) -> int:
        for i, t in enumerate(self.tiles):
            if t.id == tile_id:
                return i
        raise KeyError(tile_id)

    def of_set(self, name: str) -> tuple[TileKind, ...]:
        return tuple(t for t in self.tiles if t.set == name)

    def total(self, name: str) -> int:
        return sum(t.count for t in self.tiles if t.set == name)


def _check_tile(t: TileKind, where: str) -> None:
    """Cross-references the schema cannot express; raises with `where` in the message."""
    side_owner: dict[int, int] = {}
    for i, f in enumerate(t.features):
        if f.kind in ("monastery", "tower") and f.sides:
            raise TileCatalogueError(f"{where}.features[{i}]: a {f.kind} has no sides")
        for s in f.sides:
            if s in side_owner:
                raise TileCatalogueError(
                    f"{where}.features[{i}]: side {SIDES[s]} already belongs to "
                    f"features[{side_owner[s]}]")
            side_owner[s] = i
            if t.edges[s] != f.kind:
                raise TileCatalogueError(
                    f"{where}.features[{i}]: side {SIDES[s]} is a {f.kind} but edges says "
                    f"{t.edges[s]}")
        if f.banner and f.kind != "city":
            raise TileCatalogueError(f"{where}.features[{i}]: only a city carries a banner")
    for s in range(4):
        if t.edges[s] != "field" and s not in side_owner:
            raise TileCatalogueError(
                f"{where}.edges[{s}]: a {t.edges[s]} edge that no feature holds")
    half_owner: dict[int, int] = {}
    for i, fl in enumerate(t.fields):
        for h in fl.halves:
            if h in half_owner:
                raise TileCatalogueError(
                    f"{where}.fields[{i}]: half {HALVES[h]} is already in fields[{half_owner[h]}]")
            half_owner[h] = i
            if t.edges[h // 2] == "city":
                raise TileCatalogueError(
                    f"{where}.fields[{i}]: half {HALVES[h]} lies on a city edge")
        for c in fl.cities:
            if c >= len(t.features) or t.features[c].kind != "city":
                raise TileCatalogueError(f"{where}.fields[{i}].cities: {c} is not a city feature")
        if not fl.halves and sum(not f.halves for f in t.fields) > 1:
            raise TileCatalogueError(f"{where}.fields[{i}]: a tile has at most one enclosed "
                                     f"field (no halves)")
    for h in range(8):
        if t.edges[h // 2] != "city" and h not in half_owner:
            raise TileCatalogueError(f"{where}: half {HALVES[h]} belongs to no field")
    for s in range(4):
        if t.edges[s] == "field" and half_owner[2 * s] != half_owner[2 * s + 1]:
            raise TileCatalogueError(
                f"{where}: the field edge {SIDES[s]} is split between two fields")


def parse_tiles(text: str, path: str) -> TileSet:
    """Parse and check a tile catalogue; every error names `path` and the place in it."""
    try:
        doc: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TileCatalogueError(
            f"{path}: line {exc.lineno}, column {exc.colno}: not valid JSON: {exc.msg}") from None
    problem = first_error("carcassonne-tiles", doc)
    if problem:
        raise TileCatalogueError(f"{path}: {problem}")
    tiles: list[TileKind] = []
    seen: set[str] = set()
    for i, raw in enumerate(doc["tiles"]):
        where = f"{path}: at tiles[{i}]"
        if raw["id"] in seen:
            raise TileCatalogueError(f"{where}.id: duplicate tile id {raw['id']!r}")
        seen.add(raw["id"])
        if raw["set"] not in doc["sets"]:
            raise TileCatalogueError(f"{where}.set: unknown set {raw['set']!r}")
        feats = tuple(TileFeature(f["kind"],
                                  tuple(sorted(SIDES.index(s) for s in f.get("sides", []))),
                                  bool(f.get("banner", False))) for f in raw["features"])
        fields = tuple(TileField(tuple(sorted(HALVES.index(h) for h in f["halves"])),
                                 tuple(f["cities"])) for f in raw["fields"])
        tile = TileKind(raw["id"], raw["set"], raw.get("role"), raw["count"], raw["name"],
                        tuple(raw["edges"]), feats, fields)
        _check_tile(tile, where)
        tiles.append(tile)
    for role in ("spring", "lake"):
        holders = [t for t in tiles if t.role == role]
        if len(holders) > 1 or any(t.count != 1 for t in holders):
            raise TileCatalogueError(f"{path}: there must be at most one {role} tile, count 1")
    return TileSet(tuple(tiles), path)


@cache
def load_tiles() -> TileSet:
    """The tile catalogue bundled with gamecert."""
    ref = resources.files("gamecert.spec").joinpath(TILES_RESOURCE)
    return parse_tiles(ref.read_text("utf-8"), f"spec/{TILES_RESOURCE}")
