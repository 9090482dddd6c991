"""Kingdoms as bitboards: the facts the placement rules ask of a grid, computed with integers.

A kingdom's 81 cells are the bits of a Python int, cell (x, y) at bit 9 * y + x (the same
index as in the grid string, whose cell i is at characters 2 * i and 2 * i + 1). `Kingdom`
holds a grid's occupied cells, one mask per terrain letter (the castle '*' included), the
extent of the territory and one mask per crown count; `placement_masks` answers, for a tile,
every legal (cell, rotation) in four masks (one per rotation) with a handful of shifts.

The facts of a grid are cached by the grid string, and the engine derives a placed grid's
facts from its parent's in O(1) (`Kingdom.placed`), so a game never rescans a kingdom.

This module states the reference's placement rules (KD-GRID, KD-PLACE-NO-OVERLAP, -EXTENT,
-CONNECT, KD-PLACE-ROTATION) in bit form: the engine uses it only while none of its rule
hooks is overridden (a mutant changing a rule gets the hook-built listing). It must not
know about turns, picks or players.
"""

from __future__ import annotations

from functools import cache

from gamecert.reference_engine.kingdomino.state import N

FULL = (1 << (N * N)) - 1
_COL = tuple(sum(1 << (y * N + x) for y in range(N)) for x in range(N))
_ROW = tuple(((1 << N) - 1) << (y * N) for y in range(N))
NOT_FIRST_COL = FULL & ~_COL[0]
NOT_LAST_COL = FULL & ~_COL[N - 1]
# the put (x, y, rotation) of bit i and rotation r, at PUTS[4 * i + r]
PUTS = tuple((i % N, i // N, r) for i in range(N * N) for r in range(4))
TERRAINS = b"cfglwm"  # the terrain letters of tiles (KD-TILES)
_MASKED = "*cfglwm"  # the letters with a mask: the castle and the terrains
# the rotations whose flag (bit r) is set in a 4-bit value, ascending
_ROTATIONS = tuple(tuple(r for r in range(4) if flags >> r & 1) for flags in range(16))
# per character: a bytes.translate table turning it into "1" and every other byte into "0"
_DIGITS = {c: bytes(49 if b == ord(c) else 48 for b in range(256))
           for c in "_" + _MASKED + "123"}
_FACTS_LIMIT = 1 << 16  # grids whose facts are kept; the cache is emptied when it is full


@cache
def window(lx: int, hx: int, ly: int, hy: int) -> int:
    """The cells with lx <= x <= hx and ly <= y <= hy (clipped to the grid)."""
    cols = sum(_COL[x] for x in range(max(lx, 0), min(hx, N - 1) + 1))
    rows = sum(_ROW[y] for y in range(max(ly, 0), min(hy, N - 1) + 1))
    return cols & rows


class Kingdom:
    """The facts of one grid: occupied cells, a mask per terrain letter and per crown count
    (1-3), and the extent x0, x1, y0, y1 of the occupied cells (castle included)."""

    __slots__ = ("crowns", "occupied", "plain", "terrain", "x0", "x1", "y0", "y1")

    def __init__(self, occupied: int, terrain: dict[str, int], crowns: tuple[int, int, int],
                 x0: int, x1: int, y0: int, y1: int, plain: bool) -> None:
        self.plain = plain  # every square is a terrain letter (or the castle) and 0-3 crowns
        self.occupied = occupied
        self.terrain = terrain
        self.crowns = crowns
        self.x0, self.x1, self.y0, self.y1 = x0, x1, y0, y1

    @classmethod
    def of(cls, grid: str) -> Kingdom:
        """The facts of `grid`, computed from its characters: one translation of the grid's
        terrain (or crown) characters to binary digits per letter (or count) present."""
        raw = grid.encode("utf-8")
        if len(raw) != 2 * N * N:
            raise ValueError(f"a grid has {2 * N * N} ASCII characters, not {grid!r:.60}")
        terr, crowns = raw[-2::-2], raw[-1::-2]  # cell 80 first: int(..., 2) puts it high
        plain = not terr.translate(None, b"_*" + TERRAINS) \
            and not crowns.translate(None, b"0123")
        terrain = {key: int(terr.translate(_DIGITS[key]), 2) if ord(key) in terr else 0
                   for key in _MASKED}
        # the terrain masks are disjoint and, on a plain grid, cover every occupied cell
        occupied = sum(terrain.values()) if plain \
            else FULL & ~int(terr.translate(_DIGITS["_"]), 2)
        c1, c2, c3 = (int(crowns.translate(_DIGITS[c]), 2) if ord(c) in crowns else 0
                      for c in "123")
        if not occupied:
            return cls(0, terrain, (c1, c2, c3), N, -1, N, -1, plain)
        # the columns in use: the 9 rows folded onto the first (rows r, r+4, then r+2, r+1)
        fold = occupied | (occupied >> 36) | (occupied >> 72)
        fold |= fold >> 18
        cols = (fold | (fold >> 9)) & 511
        return cls(occupied, terrain, (c1, c2, c3), (cols & -cols).bit_length() - 1,
                   cols.bit_length() - 1, ((occupied & -occupied).bit_length() - 1) // N,
                   (occupied.bit_length() - 1) // N, plain)

    def placed(self, i: int, first: str, j: int, second: str) -> Kingdom:
        """These facts with the empty cells i and j filled by the squares `first` and
        `second` (two characters each: terrain letter, crowns)."""
        terrain = self.terrain.copy()
        bi, bj = 1 << i, 1 << j
        c1, c2, c3 = self.crowns
        ti, ci, tj, cj = first[0], first[1], second[0], second[1]
        plain = self.plain and ti in terrain and tj in terrain and ci in "0123" \
            and cj in "0123"
        if plain:
            terrain[ti] |= bi
            terrain[tj] |= bj
            if ci != "0" or cj != "0":  # most squares have no crown
                c1 |= (bi if ci == "1" else 0) | (bj if cj == "1" else 0)
                c2 |= (bi if ci == "2" else 0) | (bj if cj == "2" else 0)
                c3 |= (bi if ci == "3" else 0) | (bj if cj == "3" else 0)
        # the extent: i and j are neighbours, so one of them holds each new extreme
        yi, xi = divmod(i, N)
        yj, xj = divmod(j, N)
        x0, x1, y0, y1 = self.x0, self.x1, self.y0, self.y1
        lo, hi = (xi, xj) if xi < xj else (xj, xi)
        if lo < x0:
            x0 = lo
        if hi > x1:
            x1 = hi
        lo, hi = (yi, yj) if yi < yj else (yj, yi)
        if lo < y0:
            y0 = lo
        if hi > y1:
            y1 = hi
        return Kingdom(self.occupied | bi | bj, terrain, (c1, c2, c3), x0, x1, y0, y1, plain)


_FACTS: dict[str, Kingdom] = {}


def kingdom(grid: str) -> Kingdom:
    """The (cached) facts of `grid`."""
    k = _FACTS.get(grid)
    if k is None:
        if len(_FACTS) >= _FACTS_LIMIT:
            _FACTS.clear()
        k = _FACTS[grid] = Kingdom.of(grid)
    return k


def known(grid: str) -> Kingdom | None:
    """The facts of `grid` if they are cached, else None (never computed here)."""
    return _FACTS.get(grid)


def remember(grid: str, k: Kingdom) -> None:
    """Cache facts derived elsewhere (a placement's, from its parent's)."""
    if len(_FACTS) >= _FACTS_LIMIT:
        _FACTS.clear()
    _FACTS[grid] = k


def clear() -> None:
    """Forget every grid's facts (the benchmark starts each timed run cold)."""
    _FACTS.clear()
    window.cache_clear()


def placement_masks(k: Kingdom, first: str, second: str, size: int) -> tuple[int, ...]:
    """For a tile whose squares have terrains `first` and `second`, the cells where its first
    square can go, one mask per rotation 0-3: both squares on free cells (KD-GRID,
    KD-PLACE-NO-OVERLAP) inside the window that keeps the territory within size x size
    (KD-PLACE-EXTENT: the territory lies in that window, so a domino inside it keeps the
    extent exactly when both its cells do), and the first square touching its own terrain or
    the castle or the second square touching its own (KD-PLACE-CONNECT).

    Shifts: `m >> 1` holds the cells whose right neighbour is in m (masked off the last
    column, where it would wrap to the next row), `m >> N` those whose lower neighbour is,
    `m << 1` (masked off the first column) and `m << N` the left and upper ones; rotation r
    asks the first square's neighbour in r's direction (right, below, left, above)."""
    free = window(k.x1 - size + 1, k.x0 + size - 1, k.y1 - size + 1, k.y0 + size - 1) \
        & ~k.occupied
    terrain = k.terrain
    castle = terrain["*"]
    a = terrain.get(first, 0) | castle
    b = terrain.get(second, 0) | castle
    near_a = ((a >> 1) & NOT_LAST_COL) | ((a << 1) & NOT_FIRST_COL) | (a >> N) | (a << N)
    near_b = ((b >> 1) & NOT_LAST_COL) | ((b << 1) & NOT_FIRST_COL) | (b >> N) | (b << N)
    # `free` bounds every mask to the grid, so the shifts up need no clipping
    return (free & (free >> 1) & NOT_LAST_COL & (near_a | (near_b >> 1)),
            free & (free >> N) & (near_a | (near_b >> N)),
            free & (free << 1) & NOT_FIRST_COL & (near_a | (near_b << 1)),
            free & (free << N) & (near_a | (near_b << N)))


def puts_of(masks: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """The puts (x, y, rotation) of four rotation masks, by row, column, then rotation."""
    m0, m1, m2, m3 = masks
    every = m0 | m1 | m2 | m3
    out = []
    while every:
        low = every & -every
        i = low.bit_length() - 1
        every ^= low
        base = 4 * i
        if m0 & low:
            out.append(PUTS[base])
        if m1 & low:
            out.append(PUTS[base + 1])
        if m2 & low:
            out.append(PUTS[base + 2])
        if m3 & low:
            out.append(PUTS[base + 3])
    return tuple(out)


def count(masks: tuple[int, ...]) -> int:
    """How many puts four rotation masks hold."""
    m0, m1, m2, m3 = masks
    return m0.bit_count() + m1.bit_count() + m2.bit_count() + m3.bit_count()


def nth_put(masks: tuple[int, ...], k: int) -> tuple[int, int, int]:
    """The k-th put (from 0) of `puts_of(masks)`, without listing the others: cell by cell,
    the rotations a cell holds as four flags, counted and indexed by table."""
    m0, m1, m2, m3 = masks
    every = m0 | m1 | m2 | m3
    while every:
        low = every & -every
        every ^= low
        flags = (m0 & low and 1) | (m1 & low and 2) | (m2 & low and 4) | (m3 & low and 8)
        here = _ROTATIONS[flags]
        if k < len(here):
            return PUTS[4 * (low.bit_length() - 1) + here[k]]
        k -= len(here)
    raise IndexError("fewer puts than asked for")


def has_put(masks: tuple[int, ...], put: object) -> bool:
    """Whether `put` is a put (x, y, rotation) of whole numbers that the masks hold."""
    if type(put) is not tuple or len(put) != 3:
        return False
    x, y, r = put
    if type(x) is not int or type(y) is not int or type(r) is not int:
        return False
    return 0 <= x < N and 0 <= y < N and 0 <= r < 4 and bool(masks[r] >> (y * N + x) & 1)


def zones_of(k: Kingdom) -> list[tuple[str, int, int]] | None:
    """KD-SCORE-ZONES: every zone as (terrain, squares, crowns), ordered by each zone's first
    cell in row-major order (the order of a scan of the grid); None when the grid has a square
    that is no terrain letter with 0-3 crowns (the caller then scans the characters)."""
    if not k.plain:
        return None
    c1, c2, c3 = k.crowns
    found = []
    for letter, same in k.terrain.items():
        if letter == "*":
            continue
        todo = same
        while todo:
            first = todo & -todo  # the zone's first cell: no lower cell of `same` is left
            zone = first
            while True:  # grow the zone by its neighbours of the same terrain until it stops
                grown = (zone | ((zone >> 1) & NOT_LAST_COL) | ((zone << 1) & NOT_FIRST_COL)
                         | (zone >> N) | (zone << N)) & same
                if grown == zone:
                    break
                zone = grown
            todo &= ~zone
            found.append((first, letter, zone.bit_count(), (zone & c1).bit_count()
                          + 2 * (zone & c2).bit_count() + 3 * (zone & c3).bit_count()))
    found.sort()
    return [(letter, size, crowns) for _, letter, size, crowns in found]
