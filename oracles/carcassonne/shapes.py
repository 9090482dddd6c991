"""The shapes of a board's features, kept and shared between the states of a game: a
`Feature` (its parts, tiles, open sides, banners; its meeples once counted), `Found` (a
layout's features in the flood fill's order), `_grown` (a layout's shapes from those of the
layout one tile smaller), the caches of the last layouts' shapes, and `cells_of` (the cells
of a canonical board list, shared by equal boards and linked to the board one tile
smaller).

Shapes are read only once made: every board of a layout shares them. Works from canonical
JSON and the tile catalogue (`tileset`), never the reference engine; the flood fill from
scratch, and the meeples, are `board.Board`'s.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gamecert.oracles.carcassonne.tileset import AROUND, STEP, Cell, parts

JSON = Any
Layout = tuple[int, frozenset[tuple[Cell, tuple[str, int]]]]  # players, (cell, (tile, rotation))
Shapes = tuple["Found", dict[tuple[Cell, int], "Feature"]]  # a layout's features, their index


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
