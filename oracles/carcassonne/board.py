"""An independent reading of a canonical Carcassonne state, for the oracles.

Works from the canonical JSON and the tile catalogue file only (never the reference engine),
and computes features from scratch by a flood fill, so it is a second opinion on the
engine's incremental joining.
"""

from __future__ import annotations

import bisect
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamecert.spec import Profile

JSON = Any
Cell = tuple[int, int]
Layout = tuple[int, frozenset[tuple[Cell, tuple[str, int]]]]  # players, (cell, (tile, rotation))
Shapes = tuple["Found", dict[tuple[Cell, int], "Feature"]]  # a layout's features, their index
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


@dataclass
class Feature:
    kind: str
    parts: set[tuple[Cell, int]] = field(default_factory=set)
    tiles: set[Cell] = field(default_factory=set)
    open_sides: int = 0
    banners: int = 0
    meeples: list[int] = field(default_factory=list)
    present: int = 0  # monastery: itself and the tiles around it
    towns: list[Feature] = field(default_factory=list)  # a field: the towns it borders
    # a shape's smallest (cell, part): the flood fill finds the features in this order
    first: tuple[Cell, int] | None = None

    @property
    def complete(self) -> bool:
        return self.open_sides == 0 if self.kind != "monastery" else self.present == 9

    # tile_list and key, kept once asked (read only): (tile count then, list, key)
    memo: tuple[int, list[list[int]], Key | None] | None = field(
        default=None, repr=False, compare=False)

    def tile_list(self) -> list[list[int]]:
        """The tiles as sorted [x, y] lists (read only: kept for the next caller; a shape
        is never changed once its flood fill is over)."""
        memo = self.memo
        if memo is None or memo[0] != len(self.tiles):
            memo = self.memo = (len(self.tiles), sorted([x, y] for x, y in self.tiles), None)
        return memo[1]

    def key(self) -> Key:
        """`feature_key(kind, tile_list())`, kept once asked."""
        memo = self.memo
        if memo is None or memo[0] != len(self.tiles) or memo[2] is None:
            tiles = self.tile_list()
            memo = self.memo = (len(self.tiles), tiles, feature_key(self.kind, tiles))
        assert memo[2] is not None
        return memo[2]

    def blank(self, players: int) -> Feature:
        """The same feature with no meeples on it: its shape (parts, tiles, sides, banners)
        is shared, never changed once the flood fill that found it is over."""
        return Feature(self.kind, self.parts, self.tiles, self.open_sides, self.banners,
                       [0] * players, self.present, memo=self.memo)


Key = tuple[str, tuple[tuple[int, ...], ...]]


def feature_key(kind: str, tiles: Iterable[Iterable[int]]) -> Key:
    """A feature as events name it: its kind and its sorted tiles."""
    return kind, tuple(sorted(tuple(c) for c in tiles))


# the last boards read (held, so their ids stay theirs) and their cells
_recent: list[tuple[JSON, dict[Cell, tuple[str, int]]]] = []
# cells made by adding one tile to other cells: id -> (cells, the cells before, the tile
# added as (cell, (tile, rotation))), all held
_parents: dict[int, tuple[dict[Cell, tuple[str, int]], dict[Cell, tuple[str, int]],
                          tuple[Cell, tuple[str, int]]]] = {}


def cells_of(board: JSON) -> dict[Cell, tuple[str, int]]:
    """cell -> (tile, rotation) of a canonical board list (read only: shared). Most steps
    leave the board as it was, and a placement adds one tile: a board equal to one read
    lately shares its cells, and one with a tile more copies them and adds it. The same
    dict as `_cells_plainly` (the same keys and values, equality as the lockstep's)."""
    for seen, cells in _recent:
        if seen is board:
            return cells
    found = None
    if type(board) is list:
        for seen, cells in _recent:
            if len(seen) == len(board) and seen == board:
                found = cells
                break
            if len(seen) + 1 == len(board):
                found = _one_more(seen, cells, board)
                if found is not None:
                    break
        if found is None:
            found = _cells_plainly(board)
        _recent.insert(0, (board, found))
        del _recent[3:]
        return found
    return _cells_plainly(board)  # not a list: read as first written, and not kept


def _one_more(seen: list[JSON], cells: dict[Cell, tuple[str, int]], board: list[JSON]
              ) -> dict[Cell, tuple[str, int]] | None:
    """The cells of `board` when it is `seen` (whose cells are `cells`) with one more entry,
    on a cell `seen` does not hold; else None."""
    i, n = 0, len(seen)
    while i < n and board[i] == seen[i]:
        i += 1
    if board[i + 1:] != seen[i:]:
        return None
    b = board[i]  # the only entry not read before: it fails here as it would there
    cell = (b["at"][0], b["at"][1])
    if cell in cells:
        return None  # two entries on one cell: the later one counts, as first written
    out = dict(cells)
    out[cell] = value = (b["tile"], b["rotation"])
    _parents[id(out)] = (out, cells, (cell, value))
    if len(_parents) > 4:
        del _parents[next(iter(_parents))]
    return out


def _cells_plainly(board: JSON) -> dict[Cell, tuple[str, int]]:
    return {(b["at"][0], b["at"][1]): (b["tile"], b["rotation"]) for b in board}


@dataclass(frozen=True)
class Course:
    """The river from the spring: its tiles in order, the turn each made, where it is open."""

    cells: tuple[Cell, ...]
    turns: tuple[int, ...]  # 0 straight, 1 right, 3 left, per tile after the spring
    open_cell: Cell | None  # None once the lake closed it
    flow: int


class Board:
    def __init__(self, state: JSON, players: int | None = None,
                 profile: Profile | None = None) -> None:
        self.state = state
        self.players = players or state["players"]
        # CARC-FARM-FIELDS's reading: the profile's when given (a season's), else the
        # shipped profile the state names
        self.river_joins = (_river_joins(state.get("profile")) if profile is None
                            else profile.variant("CARC-FARM-FIELDS") == "river-joins")
        self.cells: dict[Cell, tuple[str, int]] = cells_of(state["board"])  # read only
        self._layout: Layout | None = None
        self._features: list[Feature] | None = None
        self._index: dict[tuple[Cell, int], Feature] = {}  # (cell, part) -> its feature
        self._found: Found | None = None
        self._held: dict[int, Feature] | None = None  # id of a shape -> its copy with meeples
        self._fields: list[Feature] | None = None
        self._field_index: dict[tuple[Cell, int], Feature] = {}

    # --- placement -------------------------------------------------------------------------
    def edge_at(self, cell: Cell, side: int) -> str | None:
        there = self.cells.get(cell)
        return None if there is None else edge(there[0], there[1], side)

    def neighbour(self, cell: Cell, side: int) -> Cell:
        return cell[0] + STEP[side][0], cell[1] + STEP[side][1]

    def open_cells(self) -> set[Cell]:
        out = set()
        for cell in self.cells:
            for s in range(4):
                n = self.neighbour(cell, s)
                if n not in self.cells:
                    out.add(n)
        return out

    def mismatch(self, tile: str, cell: Cell, rotation: int) -> str | None:
        """Why `tile` does not fit at `cell` (occupied, alone, or an edge that differs)."""
        if cell in self.cells:
            return "the cell is occupied"
        touching = False
        for s in range(4):
            theirs = self.edge_at(self.neighbour(cell, s), (s + 2) % 4)
            if theirs is None:
                continue
            touching = True
            mine = edge(tile, rotation, s)
            if mine != theirs:
                return f"its {SIDES[s]} edge ({mine}) faces a {theirs} edge"
        return None if touching else "it touches no tile"

    # --- the river -------------------------------------------------------------------------
    def course(self) -> Course:
        cell: Cell = (0, 0)
        tile, rot = self.cells[cell]
        flow = river_sides(tile, rot)[0]
        cells: list[Cell] = [cell]
        turns: list[int] = []
        while True:
            nxt = self.neighbour(cell, flow)
            if nxt not in self.cells:
                return Course(tuple(cells), tuple(turns), nxt, flow)
            tile, rot = self.cells[nxt]
            sides = river_sides(tile, rot)
            entry = (flow + 2) % 4
            if entry not in sides:
                return Course(tuple(cells), tuple(turns), None, flow)
            cells.append(nxt)
            cell = nxt
            if len(sides) == 1:
                return Course(tuple(cells), tuple(turns), None, flow)
            out = sides[0] if sides[1] == entry else sides[1]
            turns.append((out - flow) % 4)
            flow = out

    # --- features --------------------------------------------------------------------------
    def features(self) -> list[Feature]:
        """Every road, town and monastery with its meeples, in the flood fill's order."""
        if self._features is None:
            self._count_meeples()
            assert self._found is not None and self._held is not None
            held, templates = self._held, self._found.list()
            self._features = [held.get(id(g), g) for g in templates] if held \
                else list(templates)
        return self._features

    def fields(self) -> list[Feature]:
        """The fields as joined (CARC-FARM-FIELDS), with their farmers and bordering towns."""
        if self._fields is None:
            self._fields = self._flood_fields()
        return self._fields

    def field_at(self, cell: Cell, spot: str) -> Feature | None:
        """The field of the tile at `cell` holding half-edge `spot` (top1 ... left2), or its
        enclosed field (`spot` ENCLOSED)."""
        if spot not in FIELD_SPOTS or cell not in self.cells:
            return None
        self.fields()
        return self._field_of(cell, spot)

    def _field_of(self, cell: Cell, spot: str) -> Feature | None:
        tile, rot = self.cells[cell]
        h = HALVES.index(spot) if spot != ENCLOSED else -1
        for j, (halves, _) in enumerate(field_parts(tile, rot)):
            if h in halves or (h < 0 and not halves):
                return self._field_index[(cell, j)]
        return None

    def _flood_fields(self) -> list[Feature]:
        self._count_meeples()
        river_joins = self.river_joins
        found: list[Feature] = []
        for cell, (tile, rot) in sorted(self.cells.items()):
            for j in range(len(field_parts(tile, rot))):
                if (cell, j) in self._field_index:
                    continue
                f = Feature("field", meeples=[0] * self.players)
                found.append(f)
                self._field_index[(cell, j)] = f
                todo = [(cell, j)]
                while todo:
                    c, k = todo.pop()
                    t, r = self.cells[c]
                    halves, towns = field_parts(t, r)[k]
                    f.parts.add((c, k))
                    f.tiles.add(c)
                    for town in towns:
                        g = self._index[(c, town)]
                        if all(g is not x for x in f.towns):
                            f.towns.append(g)
                    for h in halves:
                        if river_joins and edge(t, r, h // 2) == "river":
                            # CARC-FARM-FIELDS river-joins: the other bank is the same field
                            for m, (nh, _) in enumerate(field_parts(t, r)):
                                if h ^ 1 in nh and (c, m) not in self._field_index:
                                    self._field_index[(c, m)] = f
                                    todo.append((c, m))
                        n = self.neighbour(c, h // 2)
                        if n not in self.cells:
                            f.open_sides += 1
                            continue
                        nt, nr = self.cells[n]
                        back = facing(h)
                        for m, (nh, _) in enumerate(field_parts(nt, nr)):
                            if back in nh and (n, m) not in self._field_index:
                                self._field_index[(n, m)] = f
                                todo.append((n, m))
        for m in self.state["meeples"]:
            cell = (m["at"][0], m["at"][1])
            if m["on"] in FIELD_SPOTS and cell in self.cells:
                held = self._field_of(cell, m["on"])
                if held is not None:
                    held.meeples[m["player"] - 1] += 1
        return found

    def part_at(self, cell: Cell, spot: str) -> int | None:
        """The part of the tile at `cell` that `spot` (any of its sides, or "monastery") names."""
        tile, rot = self.cells[cell]
        if type(spot) is str:
            return _part_at(tile, rot, spot)
        return _part_at_plainly(tile, rot, spot)

    def feature_at(self, cell: Cell, spot: str) -> Feature | None:
        self._count_meeples()
        i = self.part_at(cell, spot)
        return None if i is None else self._index[(cell, i)]

    def features_on(self, cell: Cell) -> list[Feature]:
        self._count_meeples()
        tile, rot = self.cells[cell]
        out: list[Feature] = []
        for i in range(len(parts(tile, rot))):
            f = self._index[(cell, i)]
            if all(f is not g for g in out):
                out.append(f)
        return out

    def monasteries_near(self, cell: Cell) -> list[Feature]:
        out = []
        for dx, dy in [(0, 0), *AROUND]:
            c = (cell[0] + dx, cell[1] + dy)
            if c in self.cells:
                f = self.feature_at(c, "monastery")
                if f is not None:
                    out.append(f)
        return out

    def _count_meeples(self) -> None:
        """The roads, towns and monasteries with their meeples, in `_index`. Their shapes
        depend on the tiles alone, and most steps (a draw, a claim, a pass) leave the tiles
        as they were: the shapes of the last few tile layouts are kept and reused
        (`_shapes`). A shape holding no meeple is itself the feature (read only: shared by
        the boards of that layout); one holding meeples is a copy with them (`_held`)."""
        if self._held is not None:
            return
        found, index = self._shapes()
        players = self.players
        held: dict[int, Feature] = {}
        for m in self.state["meeples"]:
            cell = (m["at"][0], m["at"][1])
            part = self.part_at(cell, m["on"]) if cell in self.cells else None
            if part is not None:
                shape = index[(cell, part)]
                f = held.get(id(shape))
                if f is None:
                    f = held[id(shape)] = shape.blank(players)
                f.meeples[m["player"] - 1] += 1
        if held:
            index = dict(index)
            for f in held.values():  # a copy's parts are its shape's: where the index has it
                index.update(dict.fromkeys(f.parts, f))
        self._found, self._index, self._held = found, index, held

    def _shapes(self) -> Shapes:
        """The features' shapes (no meeples: read only): those of the same cells seen
        lately, else grown from those of the cells these grew from by one tile, else by
        layout (`_by_layout`)."""
        cells, players = self.cells, self.players
        # first by the cells' identity: equal boards share their cells (`cells_of`), and a
        # placement's cells know the cells they grew from
        hit = _by_cells.get(id(cells))
        if hit is not None and hit[0] is cells and hit[1] == players:
            return hit[2]
        grown = None
        parent = _parents.get(id(cells))
        if parent is not None and parent[0] is cells:
            before = _by_cells.get(id(parent[1]))
            if before is not None and before[0] is parent[1] and before[1] == players:
                grown = _grown(before[2], parent[2], cells, players)
        shapes = grown or self._by_layout()
        _by_cells[id(cells)] = (cells, players, shapes)  # holding `cells`: its id stays its own
        if len(_by_cells) > 8:
            del _by_cells[next(iter(_by_cells))]
        return shapes

    def _by_layout(self) -> Shapes:
        """The shapes from the cache of layouts (equal cells of another origin), else grown
        from a cached layout one tile smaller (`_grow`), else flooded from scratch."""
        key = self._layout
        if key is None:  # a shape holds its zero meeples: one per player
            key = self._layout = (self.players, frozenset(self.cells.items()))
        shapes = _shapes.get(key)
        if shapes is None:
            shapes = self._grow(key) or self._flood_shapes()
            _shapes[key] = shapes
            if len(_shapes) > 8:
                del _shapes[next(iter(_shapes))]
        return shapes

    def _grow(self, key: Layout) -> Shapes | None:
        """The shapes of this layout from those of a cached layout that lacks just one of its
        tiles (a placement), or None when no such layout is cached. The flood fill's
        features are the connected parts of the tiles: adding a tile joins the features its
        parts touch, closes the sides that faced its cell, and gives the monasteries around
        it one more tile; every other feature is the same (shared: shapes are read only)."""
        players, tiles = key
        size = len(tiles) - 1
        for old_key in reversed(_shapes):
            if old_key[0] == players and len(old_key[1]) == size and old_key[1] < tiles:
                (added,) = tiles - old_key[1]
                return _grown(_shapes[old_key], added, self.cells, players)
        return None

    def completes_any(self, cell: Cell) -> bool:
        """Is a feature of the tile at `cell`, or a monastery on or around it, complete?
        Completion is a matter of shapes alone, so this needs no meeple count: the same
        answer as looking for a complete one in `features_on(cell) + monasteries_near(cell)`."""
        _, index = self._shapes()
        tile, rot = self.cells[cell]
        if any(index[(cell, i)].complete for i in range(len(parts(tile, rot)))):
            return True
        cells, cloisters = self.cells, _cloister_tiles()
        x, y = cell
        for dx, dy in _HERE_AND_AROUND:
            c = (x + dx, y + dy)
            there = cells.get(c)
            # a tile without a part named "monastery" has no monastery: skip it unasked (every
            # tile here is in the catalogue: the shapes above read them all)
            if there is not None and there[0] in cloisters:
                i = self.part_at(c, "monastery")
                if i is not None and index[(c, i)].complete:
                    return True
        return False

    def _flood_shapes(self) -> Shapes:
        """The flood fill itself, from scratch: every feature of the tiles, no meeples. (The
        board's own index is `_flood`'s: this one is the shapes', shared and read only.)"""
        index: dict[tuple[Cell, int], Feature] = {}
        found: list[Feature] = []
        for cell, (tile, rot) in sorted(self.cells.items()):
            for i, (kind, _, _, _) in enumerate(parts(tile, rot)):
                if (cell, i) in index:
                    continue
                f = Feature(kind, meeples=[0] * self.players, first=(cell, i))
                found.append(f)
                if kind == "monastery":
                    f.parts.add((cell, i))
                    f.tiles.add(cell)
                    f.present = 1 + sum(1 for dx, dy in AROUND
                                        if (cell[0] + dx, cell[1] + dy) in self.cells)
                    index[(cell, i)] = f
                    continue
                todo = [(cell, i)]
                index[(cell, i)] = f
                while todo:
                    c, j = todo.pop()
                    t, r = self.cells[c]
                    k2, sides2, banner2, _ = parts(t, r)[j]
                    f.parts.add((c, j))
                    f.tiles.add(c)
                    f.banners += banner2
                    for s in sides2:
                        n = self.neighbour(c, s)
                        if n not in self.cells:
                            f.open_sides += 1
                            continue
                        nt, nr = self.cells[n]
                        back = (s + 2) % 4
                        for m, (k3, sides3, _, _) in enumerate(parts(nt, nr)):
                            if back in sides3 and k3 == k2 and (n, m) not in index:
                                index[(n, m)] = f
                                todo.append((n, m))
        return Found(found), index


def _grown(old: Shapes,
           added: tuple[Cell, tuple[str, int]], cells: dict[Cell, tuple[str, int]],
           players: int) -> Shapes:
    """`Board._grow`: the shapes of `cells` from `old`, the shapes of `cells` without the
    tile `added`. Each feature is what `Board._flood_shapes` finds: the parts joined across
    matching sides, its open sides those (part, side) facing an empty cell, its first part
    the smallest; the list in the order of the first parts."""
    found, index = old  # `found` is not listed here: most layouts never need the list
    cell, (tile, rot) = added
    mine = parts(tile, rot)
    # the sides of the old features that faced the new tile's cell: no longer open
    closed: dict[int, int] = {}
    olds: dict[int, Feature] = {}
    links: list[list[Feature]] = [[] for _ in mine]
    for s in range(4):
        n = (cell[0] + STEP[s][0], cell[1] + STEP[s][1])
        there = cells.get(n)
        if there is None:
            continue
        back = (s + 2) % 4
        for m, (k3, sides3, _, _) in enumerate(parts(*there)):
            if k3 == "monastery" or back not in sides3:
                continue
            f = index[(n, m)]
            closed[id(f)] = closed.get(id(f), 0) + 1
            olds[id(f)] = f
            for j, (k2, sides2, _, _) in enumerate(mine):
                if k2 == k3 and k2 != "monastery" and s in sides2:
                    links[j].append(f)
    new_index = dict(index)
    replaced: dict[int, Feature] = {}  # id of an old feature -> the feature it is now part of
    fresh: list[Feature] = []
    # the new tile's parts, each with the old features it touches, joined by shared ones
    groups: list[tuple[list[int], list[Feature]]] = []
    for j, (kind, _, _, _) in enumerate(mine):
        if kind == "monastery":
            f = Feature(kind, meeples=[0] * players, first=(cell, j))
            f.parts.add((cell, j))
            f.tiles.add(cell)
            f.present = 1 + sum(1 for dx, dy in AROUND if (cell[0] + dx, cell[1] + dy) in cells)
            new_index[(cell, j)] = f
            fresh.append(f)
            continue
        joined = [gi for gi, (_, feats) in enumerate(groups)
                  if any(f is h for f in links[j] for h in feats)]
        if not joined:
            groups.append(([j], list(links[j])))
            continue
        keep = joined[0]
        for gi in joined[1:]:  # this part joins groups so far apart: one group now
            groups[keep][0].extend(groups[gi][0])
            groups[keep][1].extend(groups[gi][1])
            groups[gi] = ([], [])
        groups[keep][0].append(j)
        groups[keep][1].extend(links[j])
    for new_parts, feats in groups:
        if not new_parts:
            continue
        kind = mine[new_parts[0]][0]
        f = Feature(kind, meeples=[0] * players)
        seen: set[int] = set()
        firsts: list[tuple[Cell, int]] = []
        for g in feats:
            if id(g) in seen:
                continue
            seen.add(id(g))
            f.parts |= g.parts
            f.tiles |= g.tiles
            f.open_sides += g.open_sides - closed[id(g)]
            f.banners += g.banners
            if g.first is not None:
                firsts.append(g.first)
            replaced[id(g)] = f
        f.tiles.add(cell)
        for j in new_parts:
            _, sides, banner, _ = mine[j]
            f.parts.add((cell, j))
            f.banners += banner
            f.open_sides += sum(1 for s in sides
                                if (cell[0] + STEP[s][0], cell[1] + STEP[s][1]) not in cells)
            firsts.append((cell, j))
        f.first = min(firsts)
        new_index.update(dict.fromkeys(f.parts, f))
        if not seen:
            fresh.append(f)
    # old features whose side faced the cell without joining the tile (edges that differ)
    for key, g in olds.items():
        if key in replaced:
            continue
        f = Feature(g.kind, g.parts, g.tiles, g.open_sides - closed[key], g.banners,
                    [0] * players, g.present, first=g.first)
        replaced[key] = f
        new_index.update(dict.fromkeys(f.parts, f))
    # the monasteries around the cell have one more tile around them
    for dx, dy in AROUND:
        c = (cell[0] + dx, cell[1] + dy)
        there = cells.get(c)
        if there is None:
            continue
        for m, (kind, _, _, _) in enumerate(parts(*there)):
            if kind != "monastery":
                continue
            g = index[(c, m)]
            f = Feature(kind, g.parts, g.tiles, g.open_sides, g.banners, [0] * players,
                        g.present + 1, first=g.first)
            replaced[id(g)] = f
            new_index[(c, m)] = f
    new: dict[int, Feature] = {id(f): f for f in replaced.values()}
    for f in fresh:
        new[id(f)] = f
    return Found(None, found, replaced, list(new.values())), new_index


def _first(f: Feature) -> tuple[Cell, int]:
    assert f.first is not None
    return f.first


class Found:
    """A layout's features in the order of their first parts (the flood fill's order), the
    list made when first asked: from the list of the layout one tile smaller, without the
    features the tile replaced, with the new ones put in their places."""

    __slots__ = ("_list", "_new", "_parent", "_replaced")

    def __init__(self, features: list[Feature] | None, parent: Found | None = None,
                 replaced: dict[int, Feature] | None = None,
                 new: list[Feature] | None = None) -> None:
        self._list = features
        self._parent = parent  # held until the list is made: the replaced ids stay theirs
        self._replaced = replaced or {}
        self._new = new or []

    def list(self) -> list[Feature]:
        """The features (read only: shared by the boards of this layout)."""
        if self._list is None:
            chain: list[Found] = [self]  # the unlisted layouts back to a listed one
            while chain[-1]._list is None:
                parent = chain[-1]._parent
                assert parent is not None
                chain.append(parent)
            for found in reversed(chain[:-1]):
                assert found._parent is not None and found._parent._list is not None
                gone = found._replaced
                out = [g for g in found._parent._list if id(g) not in gone]
                for f in found._new:
                    bisect.insort(out, f, key=_first)
                found._list, found._parent, found._replaced = out, None, {}
        assert self._list is not None
        return self._list


# (players, tile layout: cell -> (tile, rotation) as a frozenset) -> (features, their index):
# the shapes of the last few layouts, oldest first
_shapes: dict[Layout, Shapes] = {}
# the same by the identity of a cells dict (`cells_of`'s, shared): id -> (cells, players,
# shapes), the cells held so that the id stays theirs
_by_cells: dict[int, tuple[dict[Cell, tuple[str, int]], int,
                           Shapes]] = {}


@cache
def _river_joins(profile_id: Any) -> bool:
    """Whether the state's profile reads CARC-FARM-FIELDS as river-joins (an unknown profile
    id: the default reading)."""
    from gamecert.spec import CatalogueError, load_catalogue

    try:
        return bool(load_catalogue("carcassonne").profile(str(profile_id))
                    .variant("CARC-FARM-FIELDS") == "river-joins")
    except (CatalogueError, KeyError):
        return False


def hand_fits(board: Board, tiles: Iterable[str]) -> list[tuple[str, Cell, int]]:
    """Every (tile, cell, rotation) where a tile of `tiles` fits the board's edges."""
    out = []
    cells = sorted(board.open_cells())
    for tile in sorted(set(tiles)):
        for cell in cells:
            for r in range(4):
                if board.mismatch(tile, cell, r) is None:
                    out.append((tile, cell, r))
    return out


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
