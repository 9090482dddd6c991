"""Kingdomino facts over canonical JSON, written independently of the reference engine.

Grids are the state's 9 row strings joined (cell (x, y) at characters 2 * (9y + x) and
the next). Tile squares come from the tile data file in spec/ (data, not engine code).
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from gamecert.spec import Profile

JSON = Any
N = 9
STEP = {0: (1, 0), 1: (0, 1), 2: (-1, 0), 3: (0, -1)}


@cache
def _tile_doc() -> dict[str, Any]:
    text = resources.files("gamecert.spec").joinpath("tiles/kingdomino.json").read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


@cache
def tiles(profile: Profile) -> dict[int, tuple[str, str]]:
    doc = _tile_doc()
    out = {t["id"]: (t["squares"][0], t["squares"][1]) for t in doc["tiles"]}
    for key, sq in doc["variants"][profile.variant("KD-TILES")].items():
        out[int(key)] = (sq[0], sq[1])
    return out


def other_lists(profile: Profile, tile: int) -> list[tuple[str, str]]:
    """Tile `tile`'s squares in every tile list of the data file."""
    doc = _tile_doc()
    base = next(t["squares"] for t in doc["tiles"] if t["id"] == tile)
    out = []
    for changes in doc["variants"].values():
        sq = changes.get(str(tile), base)
        out.append((sq[0], sq[1]))
    return out


def players(profile: Profile) -> int:
    return int(profile.param("KD-PLAYERS", "players"))


def line_size(profile: Profile) -> int:
    return int(profile.param("KD-TILES-IN-PLAY", f"line_{players(profile)}p"))


def in_play(profile: Profile) -> int:
    return int(profile.param("KD-TILES-IN-PLAY", f"in_play_{players(profile)}p"))


def turns(profile: Profile) -> int:
    return int(profile.param("KD-GAME-LENGTH", f"turns_{players(profile)}p"))


def kings(profile: Profile) -> int:
    return int(profile.param("KD-KINGS", "kings_2p")) if players(profile) == 2 else 1


def grid(state: JSON, player: int) -> str:
    return "".join(state["grids"][player - 1])


def cell(g: str, x: int, y: int) -> str:
    return g[2 * (y * N + x):2 * (y * N + x) + 2]


def around(x: int, y: int) -> list[tuple[int, int]]:
    return [(a, b) for a, b in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
            if 0 <= a < N and 0 <= b < N]


# each cell's orthogonal neighbours (index 9y + x), in `around`'s order
_AROUND = [tuple(b * N + a for a, b in around(i % N, i // N)) for i in range(N * N)]


def second(x: int, y: int, r: int) -> tuple[int, int]:
    dx, dy = STEP[r]
    return x + dx, y + dy


def on_grid(put: list[int]) -> bool:
    x, y, r = put
    if r not in STEP:
        return False
    x2, y2 = second(x, y, r)
    return 0 <= x < N and 0 <= y < N and 0 <= x2 < N and 0 <= y2 < N


def free(g: str, put: list[int]) -> bool:
    x, y, r = put
    x2, y2 = second(x, y, r)
    # g[2 * (9y + x)] is `cell(g, x, y)[0]`, and fails (IndexError) where that does
    return g[2 * (N * y + x)] == "_" and g[2 * (N * y2 + x2)] == "_"


def occupied(g: str) -> list[tuple[int, int]]:
    return [(i % N, i // N) for i in range(N * N) if g[2 * i] != "_"]


_EMPTY_LINE = "_" * N


@lru_cache(maxsize=256)
def extent(g: str) -> tuple[int, int, int, int] | None:
    """(least x, greatest x, least y, greatest y) of the occupied cells, or None. Cached:
    `fits_somewhere` asks it of one grid for every placement it tries."""
    if len(g) == 2 * N * N:  # by rows and columns: the same least and greatest x and y
        terrain = g[0::2]
        ys = [y for y in range(N) if terrain[N * y:N * y + N] != _EMPTY_LINE]
        if not ys:
            return None
        xs = [x for x in range(N) if terrain[x::N] != _EMPTY_LINE]
        return xs[0], xs[-1], ys[0], ys[-1]
    cells = occupied(g)
    if not cells:
        return None
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    return min(xs), max(xs), min(ys), max(ys)


def within(g: str, put: list[int], size: int) -> bool:
    x, y, r = put
    x2, y2 = second(x, y, r)
    box = extent(g)
    lo_x, hi_x, lo_y, hi_y = box if box is not None else (x, x, y, y)
    return (max(hi_x, x, x2) - min(lo_x, x, x2) < size
            and max(hi_y, y, y2) - min(lo_y, y, y2) < size)


def touches(g: str, x: int, y: int, terrain: str) -> bool:
    for i in _AROUND[N * y + x]:  # the cells of `around(x, y)`, in its order
        first = g[2 * i]  # `cell(g, a, b)[0]`
        if first == "*" or first == terrain:
            return True
    return False


def _near(g: str) -> list[frozenset[str]]:
    """For each cell (index 9y + x), the terrains (and `*`, the castle) of its orthogonal
    neighbours: `touches` for every cell of one grid at once."""
    return [frozenset(cell(g, a, b)[0] for a, b in around(i % N, i // N))
            for i in range(N * N)]


def connected(g: str, put: list[int], squares: tuple[str, str]) -> bool:
    x, y, r = put
    x2, y2 = second(x, y, r)
    return touches(g, x, y, squares[0][0]) or touches(g, x2, y2, squares[1][0])


def placement_faults(g: str, put: list[int], squares: tuple[str, str], size: int) -> list[str]:
    """The placement rules `put` breaks on grid `g` (empty when it places the tile)."""
    if not on_grid(put):
        return ["KD-GRID"]
    faults = []
    if not free(g, put):
        faults.append("KD-PLACE-NO-OVERLAP")
    if not within(g, put, size):
        faults.append("KD-PLACE-EXTENT")
    if not connected(g, put, squares):
        faults.append("KD-PLACE-CONNECT")
    return faults


@lru_cache(maxsize=1024)
def fits_somewhere(g: str, squares: tuple[str, str], size: int,
                   connect: bool = True) -> list[int] | None:
    """A placement of the tile, or None; `connect=False` leaves out the connection rule.
    Cached (bounded): several oracles ask it about the same position in one step; the
    caller must not change the list it returns."""
    if len(g) != 2 * N * N:
        return _fits_plain(g, squares, size, connect)
    return _fits_masks(g, squares, size, connect)


def _fits_plain(g: str, squares: tuple[str, str], size: int,
                connect: bool = True) -> list[int] | None:
    """`fits_somewhere` by trying every placement in order (any grid string)."""
    # `placement_faults` inlined, the grid's facts worked out once: the same placements are
    # tried in the same order and the first one it finds no fault with (or only
    # KD-PLACE-CONNECT's, when `connect` is off) is returned
    near = _near(g)
    for y in range(N):
        for x in range(N):
            for r in range(4):
                put = [x, y, r]
                if not on_grid(put) or not free(g, put) or not within(g, put, size):
                    continue
                if not connect:
                    return put
                x2, y2 = second(x, y, r)
                one, two = near[y * N + x], near[y2 * N + x2]
                if "*" in one or squares[0][0] in one or "*" in two or squares[1][0] in two:
                    return put
    return None


# Cell sets as integers, bit 9y + x for cell (x, y): what `_fits_masks` works with (and the
# one-rule probes of fuzz.games.kingdomino.probes, which read placements by cell sets too).
ALL = (1 << N * N) - 1
_NOT_LAST_COL = sum(1 << (N * y + x) for y in range(N) for x in range(N - 1))
_NOT_FIRST_COL = sum(1 << (N * y + x) for y in range(N) for x in range(1, N))
COL = [sum(1 << (N * y + x) for y in range(N)) for x in range(N)]
ROW = [sum(1 << (N * y + x) for x in range(N)) for y in range(N)]


def toward(m: int, r: int) -> int:
    """The cells whose neighbour in direction `r` (that of `second`) is in `m`."""
    if r == 0:
        return (m >> 1) & _NOT_LAST_COL
    if r == 1:
        return m >> N
    if r == 2:
        return (m << 1) & _NOT_FIRST_COL
    return (m << N) & ALL


def beside(m: int) -> int:
    """The cells with an orthogonal neighbour in `m` (`around`, for a set of cells)."""
    return toward(m, 0) | toward(m, 1) | toward(m, 2) | toward(m, 3)


@lru_cache(maxsize=256)
def terrain_masks(g: str) -> dict[str, int]:
    """For a grid of 81 cells: each first character (terrain, `*`, `_`) -> its cells."""
    out: dict[str, int] = {}
    for i, ch in enumerate(g[0::2]):
        out[ch] = out.get(ch, 0) | (1 << i)
    return out


def _span(lo: int, hi: int, size: int, lines: list[int]) -> int:
    """The cells on the lines (columns or rows) k with hi - size < k < lo + size."""
    out = 0
    for k in range(max(0, hi - size + 1), min(N - 1, lo + size - 1) + 1):
        out |= lines[k]
    return out


def _fits_masks(g: str, squares: tuple[str, str], size: int,
                connect: bool = True) -> list[int] | None:
    """`fits_somewhere` for a grid of 81 cells, with cell sets: the same placements are
    allowed (both cells on the grid and free, the territory inside `size` x `size`, a
    neighbour of the castle or of a square's terrain) and the first of them in the order
    `_fits_plain` tries them (by cell 9y + x, then rotation) is returned."""
    masks = terrain_masks(g)
    free_cells = masks.get("_", 0)
    if size < 2:  # a domino spans two lines: no territory narrower than 2 holds it
        return None
    box = extent(g)
    if box is None:
        window = free_cells
    else:
        lo_x, hi_x, lo_y, hi_y = box
        if hi_x - lo_x >= size or hi_y - lo_y >= size:
            return None
        window = free_cells & _span(lo_x, hi_x, size, COL) & _span(lo_y, hi_y, size, ROW)
    if connect:
        castle = masks.get("*", 0)
        one = beside(castle | masks.get(squares[0][0], 0))
        two = beside(castle | masks.get(squares[1][0], 0))
    firsts = []
    for r in range(4):
        m = window & toward(window, r)
        if connect:
            m &= one | toward(two, r)
        firsts.append(m)
    every = firsts[0] | firsts[1] | firsts[2] | firsts[3]
    if not every:
        return None
    low = every & -every
    i = low.bit_length() - 1
    r = next(r for r in range(4) if firsts[r] & low)
    return [i % N, i // N, r]


def zones(g: str) -> list[tuple[str, int, int]]:
    """(terrain, squares, crowns) of each orthogonally connected zone; the castle is none."""
    if len(g) != 2 * N * N:
        return _zones_plain(g)
    return list(_zones_81(g))


@lru_cache(maxsize=64)
def _zones_81(g: str) -> tuple[tuple[str, int, int], ...]:
    """`zones` for a grid of 81 cells, by cell index. Cached: KD-SCORE-ZONES and
    KD-TIE-BREAK ask it of the same final grids."""
    terrain, crown = g[0::2], g[1::2]
    seen = [False] * (N * N)
    out = []
    for i in range(N * N):
        t = terrain[i]
        if t in "_*" or seen[i]:
            continue
        todo, size, crowns = [i], 0, 0
        seen[i] = True
        while todo:
            c = todo.pop()
            size += 1
            crowns += int(crown[c])
            for nb in _AROUND[c]:
                if not seen[nb] and terrain[nb] == t:
                    seen[nb] = True
                    todo.append(nb)
        out.append((t, size, crowns))
    return tuple(out)


def _zones_plain(g: str) -> list[tuple[str, int, int]]:
    """`zones` cell by cell (any grid string)."""
    seen: set[tuple[int, int]] = set()
    out = []
    for y in range(N):
        for x in range(N):
            t = cell(g, x, y)[0]
            if t in "_*" or (x, y) in seen:
                continue
            todo, size, crowns = [(x, y)], 0, 0
            seen.add((x, y))
            while todo:
                cx, cy = todo.pop()
                size += 1
                crowns += int(cell(g, cx, cy)[1])
                for nb in around(cx, cy):
                    if nb not in seen and cell(g, *nb)[0] == t:
                        seen.add(nb)
                        todo.append(nb)
            out.append((t, size, crowns))
    return out


def score(g: str) -> int:
    return sum(size * crowns for _, size, crowns in zones(g))


def territory(g: str, largest_zone: bool) -> int:
    if largest_zone:
        return max((size for _, size, _ in zones(g)), default=0)
    if len(g) == 2 * N * N:  # each cell's terrain is empty, the castle or a terrain
        terrain = g[0::2]
        return N * N - terrain.count("_") - terrain.count("*")
    return sum(1 for i in range(N * N) if g[2 * i] not in "_*")


_DIGITS = frozenset("0123456789")


def crowns(g: str) -> int:
    if len(g) == 2 * N * N:
        counts = g[1::2]
        kinds = set(counts)
        if kinds <= _DIGITS:  # the same sum, one digit at a time
            return sum(int(d) * counts.count(d) for d in kinds)
    return sum(int(g[2 * i + 1]) for i in range(N * N))


def changed_cells(before: str, after: str) -> dict[tuple[int, int], str]:
    if before == after:  # most steps change no grid, or one of several
        return {}
    if len(before) == len(after) == 2 * N * N:  # the common shape: only the rows that differ
        w = 2 * N
        out = {}
        for y in range(N):
            if before[w * y:w * y + w] != after[w * y:w * y + w]:
                for x in range(N):
                    i = 2 * (N * y + x)
                    if before[i] != after[i] or before[i + 1] != after[i + 1]:
                        out[(x, y)] = after[i:i + 2]
        return out
    return _changed_plain(before, after)


def _changed_plain(before: str, after: str) -> dict[tuple[int, int], str]:
    """`changed_cells` cell by cell."""
    if before == after:
        return {}
    if len(before) == len(after) == 2 * N * N:
        return {(i % N, i // N): after[2 * i:2 * i + 2] for i in range(N * N)
                if before[2 * i] != after[2 * i] or before[2 * i + 1] != after[2 * i + 1]}
    return {(i % N, i // N): after[2 * i:2 * i + 2] for i in range(N * N)
            if before[2 * i:2 * i + 2] != after[2 * i:2 * i + 2]}
