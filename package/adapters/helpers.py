"""Conversions every adapter needs between a native engine's conventions and ours.

Our canonical states (schemas/<game>-state.schema.json) fix a few conventions that native
engines each choose differently:

* players are numbered 1..N in turn order (natives often count from 0);
* Carcassonne cells are [x, y] with the spring at [0, 0] and y growing downward (natives
  often keep a row/column array with the start tile somewhere in the middle);
* rotations are clockwise quarter turns 0-3 (natives use degrees, counter-clockwise turns...);
* tiles have our ids (Carcassonne letters A-X and R1..RE, Kingdomino numbers 1-48);
* Kingdomino grids are 9 rows of 9 two-character cells with the castle at row 4, column 4.

Each helper converts both ways and raises `ValueError` with a clear message on a value it
cannot convert. This module must not import the harness: adapters use it, nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)


# --- players ---------------------------------------------------------------------------
def player_id(native: int, zero_based: bool = True) -> int:
    """Our player number (1..N) for a native player index."""
    return native + 1 if zero_based else native


def native_player(player: int, zero_based: bool = True) -> int:
    """The native player index for our player number (1..N)."""
    if type(player) is not int or player < 1:
        raise ValueError(f"a player is numbered from 1, not {player!r}")
    return player - 1 if zero_based else player


def per_player(values: Sequence[Any], order: Sequence[int] | None = None) -> list[Any]:
    """A per-player list in our order (player 1 first); `order` lists native indices in our
    player order when the native engine keeps its players in another order."""
    return [values[i] for i in order] if order is not None else list(values)


# --- coordinates -----------------------------------------------------------------------
@dataclass(frozen=True)
class Grid:
    """A native board addressed by (row, column) or (x, y), mapped to our [x, y] cells.

    `origin` is the native address of our [0, 0]; `rows_first` says native addresses are
    (row, column); `y_up` says the native y (or row) grows upward where ours grows downward;
    `quarter_turns` turns the whole native board clockwise by that many quarter turns on its
    way to ours (for an engine that lays its start tile another way round than we do: the
    game is the same on a turned board; add the same turns to every tile's rotation and side).
    """

    origin: tuple[int, int] = (0, 0)
    rows_first: bool = True
    y_up: bool = False
    quarter_turns: int = 0

    def cell(self, a: int, b: int) -> list[int]:
        """Our [x, y] for the native address (a, b)."""
        col, row = (b, a) if self.rows_first else (a, b)
        ocol, orow = (self.origin[1], self.origin[0]) if self.rows_first else self.origin
        dy = row - orow
        x, y = col - ocol, (-dy if self.y_up else dy)
        for _ in range(self.quarter_turns % 4):
            x, y = -y, x  # clockwise on a board whose y grows downward
        return [x, y]

    def native(self, cell: Sequence[int]) -> tuple[int, int]:
        """The native address of our cell [x, y]."""
        if len(cell) != 2 or any(type(v) is not int for v in cell):
            raise ValueError(f"a cell is [x, y] with whole numbers, not {cell!r}")
        x, y = cell
        for _ in range(self.quarter_turns % 4):
            x, y = y, -x  # the inverse turn
        ocol, orow = (self.origin[1], self.origin[0]) if self.rows_first else self.origin
        col, row = x + ocol, (-y if self.y_up else y) + orow
        return (row, col) if self.rows_first else (col, row)

    def side(self, native_side: int) -> int:
        """Our side (0-3 clockwise from the top) for a native side on the turned board."""
        return (native_side + self.quarter_turns) % 4

    def half(self, native_half: int) -> int:
        """Our half-edge (0-7 clockwise from top1) for a native half-edge."""
        return (native_half + 2 * self.quarter_turns) % 8


def cell_key(cell: Sequence[int]) -> tuple[int, int]:
    """Sort key for our board lists (sorted by cell: x first, then y)."""
    return (cell[0], cell[1])


# --- rotations -------------------------------------------------------------------------
def rotation(native: int, *, unit: int = 1, clockwise: bool = True, offset: int = 0) -> int:
    """Our rotation (clockwise quarter turns, 0-3) for a native one given in `unit`s per
    quarter turn (1 for quarter turns, 90 for degrees), clockwise or not; `offset` is our
    rotation of the native engine's rotation 0 when the two draw the same tile differently."""
    if native % unit:
        raise ValueError(f"rotation {native!r} is not a whole number of quarter turns "
                         f"({unit} per quarter turn)")
    q = native // unit
    return ((q if clockwise else -q) + offset) % 4


def native_rotation(ours: int, *, unit: int = 1, clockwise: bool = True, offset: int = 0) -> int:
    """The native rotation for ours (the inverse of `rotation`), in 0..4*unit-1."""
    if ours not in (0, 1, 2, 3):
        raise ValueError(f"a rotation is 0-3 clockwise quarter turns, not {ours!r}")
    q = (ours - offset) % 4
    return ((q if clockwise else -q) % 4) * unit


# --- ids -------------------------------------------------------------------------------
class IdMap:
    """A one-to-one map between native ids (tiles, terrains, spots...) and ours."""

    def __init__(self, pairs: Mapping[Any, Any] | Iterable[tuple[Any, Any]], what: str) -> None:
        items = list(pairs.items()) if isinstance(pairs, Mapping) else list(pairs)
        self.what = what
        self.to_ours: dict[Any, Any] = {}
        self.to_native: dict[Any, Any] = {}
        for native, ours in items:
            if native in self.to_ours or ours in self.to_native:
                raise ValueError(f"{what}: {native!r} <-> {ours!r} is not one-to-one")
            self.to_ours[native] = ours
            self.to_native[ours] = native

    def ours(self, native: Any) -> Any:
        try:
            return self.to_ours[native]
        except (KeyError, TypeError):
            raise ValueError(f"unknown native {self.what} {native!r}") from None

    def native(self, ours: Any) -> Any:
        try:
            return self.to_native[ours]
        except (KeyError, TypeError):
            raise ValueError(f"no native {self.what} for our {ours!r}") from None


def counts(ids: Iterable[str]) -> dict[str, int]:
    """A pile as our counts object: {tile id: how many}, sorted by id, zeros left out."""
    out: dict[str, int] = {}
    for i in ids:
        out[i] = out.get(i, 0) + 1
    return dict(sorted(out.items()))


def match_action(action: Any, candidates: Iterable[Any], to_canonical: Callable[[Any], Any],
                 same: Callable[[Any, Any], bool] | None = None) -> Any:
    """The native move among `candidates` (the engine's own move list) whose canonical form
    is `action`; None when there is none. For engines that list their moves but do not check
    a move they are handed: an action missing from the engine's own list is refused."""
    eq = same or (lambda a, b: a == b)
    for move in candidates:
        if eq(to_canonical(move), action):
            return move
    return None


# --- Carcassonne tiles -----------------------------------------------------------------
SIDES = ("top", "right", "bottom", "left")
HALVES = ("top1", "top2", "right1", "right2", "bottom1", "bottom2", "left1", "left2")


def carcassonne_tile(edges: Sequence[str], *, cities: Iterable[Iterable[int]] = (),
                     banner: bool | None = None, monastery: bool | None = None,
                     river: bool | None = None, role: str | None = None
                     ) -> list[tuple[str, int]]:
    """Our Carcassonne tile ids and rotations that look like a native tile lying on the
    board: `edges` are its four edge kinds (field, road, city, river) top, right, bottom,
    left as it lies; `cities` (sides 0-3) the towns as it joins them; the flags, when given,
    must match (`role`: 'spring' or 'lake' for the river's ends). Returns every tile id
    that fits, each with its lowest fitting rotation; two answers are an ambiguity for the
    adapter to resolve (by the native tile's own name)."""
    from gamecert.reference_engine.carcassonne.tiles import load_tiles

    want_cities = sorted(tuple(sorted(c)) for c in cities)
    out: list[tuple[str, int]] = []
    for kind in load_tiles():
        if monastery is not None and kind.monastery != monastery:
            continue
        if banner is not None and kind.banner != banner:
            continue
        if river is not None and ("river" in kind.edges) != river:
            continue
        if kind.tower or (role is not None and kind.role != role):
            continue
        for r in range(4):
            turned = kind.rotated(r)
            if tuple(turned.edges) != tuple(edges):
                continue
            have = sorted(f.sides for f in turned.features if f.kind == "city")
            if want_cities and have != want_cities:
                continue
            if all(t != kind.id for t, _ in out):  # a symmetric tile: its lowest rotation
                out.append((kind.id, r))
    return out


def feature_name(tile: str, rotation_: int, side: str) -> str:
    """Our canonical name of the feature that `side` (a side, half-edge or 'monastery') of
    tile `tile` lying at `rotation_` belongs to: its first side clockwise from the top (for a
    field, its first half-edge from top1), as claims and meeples name features."""
    from gamecert.reference_engine.carcassonne.tiles import load_tiles

    if side == "monastery":
        return side
    turned = load_tiles().get(tile).rotated(rotation_)
    if side in SIDES:
        s = SIDES.index(side)
        for f in turned.features:
            if s in f.sides:
                return SIDES[min(f.sides)]
        raise ValueError(f"side {side!r} of tile {tile} (rotation {rotation_}) is a field edge")
    if side in HALVES:
        h = HALVES.index(side)
        for fld in turned.fields:
            if h in fld.halves:
                return HALVES[min(fld.halves)]
        raise ValueError(f"half-edge {side!r} of tile {tile} (rotation {rotation_}) is in no "
                         "field")
    raise ValueError(f"{side!r} is not a side, a half-edge or 'monastery'")


# --- Kingdomino grids, Flit and Bot Wars boards -------------------------------------------
KINGDOMINO_TERRAINS = "cfglwm"
"""Our terrain letters (schemas/kingdomino-state: `_` empty, `*` the castle)."""


def kingdomino_grid(cells: Mapping[tuple[int, int], tuple[str, int]],
                    castle: tuple[int, int]) -> list[str]:
    """Our 9 x 9 grid (9 strings of 9 two-character cells, castle at row 4, column 4) from a
    native kingdom: `cells` maps native (x, y) to (our terrain letter, crowns), `castle` is
    the native (x, y) of the castle. A cell that would fall outside the 9 x 9 is an error."""
    rows = [["_0"] * 9 for _ in range(9)]
    rows[4][4] = "*0"
    for (x, y), (terrain, crowns) in cells.items():
        if terrain not in KINGDOMINO_TERRAINS or type(crowns) is not int or \
                not 0 <= crowns <= 3:
            raise ValueError(f"cell {(x, y)}: terrain {terrain!r} with {crowns!r} crowns is not "
                             f"one of {KINGDOMINO_TERRAINS!r} with 0-3 crowns")
        col, row = x - castle[0] + 4, y - castle[1] + 4
        if not (0 <= col < 9 and 0 <= row < 9) or (col, row) == (4, 4):
            raise ValueError(f"cell {(x, y)} lies outside the 9 x 9 grid around the castle "
                             "or on it")
        rows[row][col] = f"{terrain}{crowns}"
    return ["".join(r) for r in rows]


def board_string(rows: Sequence[Sequence[Any]], symbol: Callable[[Any], str]) -> str:
    """A row-major board string (Flit, Bot Wars) from native rows, one character per square:
    `symbol` turns a native square into our character."""
    out = []
    for y, row in enumerate(rows):
        for x, square in enumerate(row):
            ch = symbol(square)
            if len(ch) != 1:
                raise ValueError(f"square ({x}, {y}): {square!r} gives {ch!r}, not one character")
            out.append(ch)
    return "".join(out)
