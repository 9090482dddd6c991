"""An independent reading of a canonical Carcassonne state, for the oracles.

Works from the canonical JSON and the tile catalogue file only (never the reference engine),
and computes features from scratch by a flood fill, so it is a second opinion on the
engine's incremental joining.

This module holds the `Board` (placement, the river's course, features and fields with
their meeples, the flood fill) and what reads a whole board (`hand_fits`); the tile facts
are `tileset`'s and the shared shapes `shapes`'. It re-exports the names the other oracle
modules, the search and the tests read from here. It judges nothing and names no rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from gamecert.oracles.carcassonne.shapes import (
    Feature,
    Found,
    Layout,
    Shapes,
    _by_cells,
    _grown,
    _parents,
    _shapes,
    cells_of,
    feature_key,
)
from gamecert.oracles.carcassonne.shapes import _cells_plainly as _cells_plainly
from gamecert.oracles.carcassonne.shapes import _one_more as _one_more
from gamecert.oracles.carcassonne.shapes import _recent as _recent
from gamecert.oracles.carcassonne.tileset import (
    _HERE_AND_AROUND,
    AROUND,
    ENCLOSED,
    FIELD_SPOTS,
    HALVES,
    SIDES,
    STEP,
    Cell,
    _cloister_tiles,
    _part_at,
    _part_at_plainly,
    catalogue,
    deck_sets,
    edge,
    facing,
    field_parts,
    in_game,
    parts,
    river_sides,
    tile_totals,
    tower_ids,
    tower_start,
)
from gamecert.oracles.carcassonne.tileset import _count_tiles as _count_tiles
from gamecert.oracles.carcassonne.tileset import _count_tiles_plainly as _count_tiles_plainly

if TYPE_CHECKING:
    from gamecert.spec import Profile

JSON = Any

# the names the other oracle modules, the search and the tests import from here (and, imported
# `as` themselves above, the private ones tests/carcassonne/test_speedups.py reads)
__all__ = ["AROUND", "ENCLOSED", "FIELD_SPOTS", "HALVES", "SIDES", "STEP", "Board", "Cell",
           "Course", "Feature", "Found", "Shapes", "catalogue", "cells_of", "deck_sets", "edge",
           "facing", "feature_key", "field_parts", "hand_fits", "in_game", "parts",
           "river_sides", "tile_totals", "tower_ids", "tower_start"]


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


def hand_fits(board: Board, tiles: Iterable[str]) -> Iterator[tuple[str, Cell, int]]:
    """Every (tile, cell, rotation) where a tile of `tiles` fits the board's edges, in
    order, as they are found: whether any fits needs only the first."""
    cells = sorted(board.open_cells())
    for tile in sorted(set(tiles)):
        for cell in cells:
            for r in range(4):
                if board.mismatch(tile, cell, r) is None:
                    yield tile, cell, r
