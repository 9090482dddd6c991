"""Facts several Kingdomino oracles derive from the same JSON, worked out once (issue 15).

Only speed lives here: each fact is what `board`'s plain functions give for the same JSON,
kept so that the next oracle (or the next step) asking it does not work it out again.

* `consts(profile)`: the profile's parameters the oracles read at every step (each read
  once, when first asked, by the same `board` function as before).
* `grid_facts(rows)`: one grid (`Grid`): its joined string, whether its rows are well
  formed, whether its castle is alone on (4, 4), its extent; cached by the value of its
  rows (a grid is the same from step to step until its owner places a tile).
* `state_grids(state)` / `grids(state)`: the `Grid`s of a state's grids and what the state
  checks ask of them all, cached by the state object's identity (the lockstep shows the
  reference's own objects when the engine agrees, and a step's `after` is the next step's
  `before`); the cache holds each state alive, so an id is never reused for another object
  while its entry exists. A state whose grids equal the last one read gets its facts.
* `put_step(t, profile, placing)`: a transition that puts a tile (`PutStep`): the acting
  king, its tile, the put's cells, every grid's change and the placement's faults, worked
  out once for the several checks that ask (one entry, holding `t`: the lockstep asks
  every check about one transition object before the next).

Nothing here judges: the oracles in `__init__` do, and fall back to their plain
computation whenever a fast one cannot read the JSON, so an unreadable reply gets the very
verdict (or exception) it got before. The facts assume, as every oracle may, that the JSON
they are shown is not changed afterwards. It must not import the reference engine.
"""

from __future__ import annotations

import re
from functools import cache, cached_property, lru_cache
from typing import Any

from gamecert.oracles.base import Transition
from gamecert.oracles.kingdomino import board as b
from gamecert.spec import Profile

JSON = Any
ROW = re.compile(r"([_*cfglwm][0-3]){9}")


class Consts:
    """A profile's parameters as the oracles read them, each read when first asked."""

    def __init__(self, profile: Profile) -> None:
        self.profile = profile

    @cached_property
    def players(self) -> int:
        return b.players(self.profile)

    @cached_property
    def kings(self) -> int:
        return b.kings(self.profile)

    @cached_property
    def line_size(self) -> int:
        return b.line_size(self.profile)

    @cached_property
    def in_play(self) -> int:
        return b.in_play(self.profile)

    @cached_property
    def turns(self) -> int:
        return b.turns(self.profile)

    @cached_property
    def tiles(self) -> dict[int, tuple[str, str]]:
        return b.tiles(self.profile)

    @cached_property
    def alone(self) -> int:
        """KD-GAME-LENGTH: how many players still playing end the game (KD-STOP)."""
        return 1 if self.profile.variant("KD-STOP") == "end-when-alone" else 0

    @cached_property
    def size(self) -> Any:
        return self.profile.param("KD-PLACE-EXTENT", "size")


@cache
def consts(profile: Profile) -> Consts:
    """Cached by the profile's identity (profiles compare and hash by identity)."""
    return Consts(profile)


class Grid:
    """One grid's facts: `g` is `board.grid`'s joined string of its rows; `shaped` says its
    rows are 9 strings of 18 characters (row y of `g` is then `rows[y]`)."""

    __slots__ = ("_extent", "castle_ok", "g", "rows", "rows_ok", "shaped")

    def __init__(self, rows: tuple[Any, ...]) -> None:
        g = "".join(rows)
        self.g, self.rows = g, rows
        self._extent: tuple[tuple[int, int, int, int] | None] | None = None
        # KD-PROTO-INPUT: 9 lines of 9 two-character cells (`ROW`)
        self.rows_ok = len(rows) == b.N and (_GOOD_ROWS.issuperset(rows) or _rows_match(rows))
        # 9 rows of 18 characters (so are rows that match `ROW`): 162 in all and none longer
        # than 18 says the same
        self.shaped = self.rows_ok or (len(rows) == b.N and len(g) == 2 * b.N * b.N and max(
            map(len, rows)) == 2 * b.N)
        # KD-GRID: the castle on (4, 4) and nowhere else
        self.castle_ok = b.cell(g, 4, 4) == "*0" and g.count("*") == 1

    @property
    def extent(self) -> tuple[int, int, int, int] | None:
        """`board.extent(g)`, worked out when first asked unless `grown` gave it."""
        if self._extent is None:
            self._extent = (b.extent(self.g),)
        return self._extent[0]

    def grown(self, before: Grid, diff: dict[tuple[int, int], str]) -> None:
        """This grid is `before` with the cells of `diff` (its exact difference) changed:
        when each of them is occupied now, its extent is `before`'s widened to them (the
        occupied cells are `before`'s and these). Only `before`'s known extent is used."""
        if self._extent is not None or before._extent is None or not diff or not (
                self.shaped and before.shaped):
            return
        box = before._extent[0]
        lo_x, hi_x, lo_y, hi_y = box if box is not None else (b.N, -1, b.N, -1)
        for (x, y), now in diff.items():
            if now[0] == "_":  # a cell emptied: the extent may shrink
                return
            lo_x, hi_x = min(lo_x, x), max(hi_x, x)
            lo_y, hi_y = min(lo_y, y), max(hi_y, y)
        self._extent = ((lo_x, hi_x, lo_y, hi_y),)

    def rows_ok_plain(self) -> bool:
        """`rows_ok` by `ROW`, row by row (for the tests)."""
        return len(self.rows) == 9 and all(ROW.fullmatch(r) for r in self.rows)


# rows seen to match `ROW` (bounded): grids share most of their rows, and a grid that gains
# a tile changes one or two
_GOOD_ROWS: set[str] = set()


def _rows_match(rows: tuple[str, ...]) -> bool:
    """Every row matches `ROW` (the plain reading); those that do are remembered. A row
    remembered has matched already: only the others are matched (a grid that gains a tile
    changes one or two rows)."""
    if len(_GOOD_ROWS) > 4096:
        _GOOD_ROWS.clear()
    good = _GOOD_ROWS
    for r in rows:
        if r in good:
            continue
        if not ROW.fullmatch(r):
            return False
        good.add(r)
    return True


@lru_cache(maxsize=512)
def grid_facts(rows: tuple[Any, ...]) -> Grid:
    return Grid(rows)


class StateGrids:
    """The facts of each of a state's grids, and what the state checks ask of them all."""

    __slots__ = ("castle_bad", "grids", "rows_ok")

    def __init__(self, grids: tuple[Grid, ...]) -> None:
        self.grids = grids
        # KD-PROTO-INPUT: every grid's rows well formed; KD-GRID: the first grid (from 0)
        # whose castle is not alone on (4, 4), or None (a loop: a few grids, no generator)
        rows_ok, castle_bad = True, None
        for i, g in enumerate(grids):
            if not g.rows_ok:
                rows_ok = False
            if castle_bad is None and not g.castle_ok:
                castle_bad = i
        self.rows_ok: bool = rows_ok
        self.castle_bad: int | None = castle_bad


_STATES: dict[int, tuple[JSON, StateGrids]] = {}
_STATES_KEPT = 16
# the rows (copies) and facts of the grids of the state read last: most grids are the same
# at the next state, and comparing rows is cheaper than looking them up
_PREV: tuple[list[list[Any]], StateGrids] = ([], StateGrids(()))
# the entry asked about last (a state no caller holds: nothing is `is` it)
_LAST_STATE: tuple[JSON, StateGrids] = (object(), StateGrids(()))


def state_grids(s: JSON) -> StateGrids:
    """The facts of `s`'s grids. Raises whatever reading them raises."""
    global _PREV, _LAST_STATE
    last = _LAST_STATE
    if last[0] is s:  # the state asked about last (its entry keeps it alive)
        return last[1]
    key = id(s)
    hit = _STATES.get(key)
    if hit is not None and hit[0] is s:
        _LAST_STATE = hit
        return hit[1]
    prev_rows, prev = _PREV
    every = s["grids"]
    if every == prev_rows:  # every grid's rows equal: the same facts (most steps)
        out = prev
    else:
        kept = prev.grids
        facts, copies = [], []
        for i, rows in enumerate(every):
            if i < len(kept) and rows == prev_rows[i]:  # equal rows: the same facts
                facts.append(kept[i])
                copies.append(prev_rows[i])
            else:
                facts.append(grid_facts(tuple(rows)))
                copies.append(list(rows))
        out = StateGrids(tuple(facts))
        _PREV = (copies, out)
    if len(_STATES) >= _STATES_KEPT:
        del _STATES[next(iter(_STATES))]  # the oldest
    # `s` kept alive with its entry: its id stays its own
    _STATES[key] = _LAST_STATE = (s, out)
    return out


def grids(s: JSON) -> tuple[Grid, ...]:
    """The facts of each of `s`'s grids, in order. Raises whatever reading them raises."""
    return state_grids(s).grids


class PutStep:
    """A step that puts a tile (`_placing_put` holds): the acting king's tile and player,
    the put's two cells (None when it leaves the grid) and, when first asked, the grids'
    changes (`read`) and the placement's faults on the player's grid before the step."""

    __slots__ = ("_faults", "_matches", "after", "before", "cells", "diffs", "player",
                 "profile", "put", "t", "tile", "xy")

    def __init__(self, t: Transition, profile: Profile, tile: int, player: int) -> None:
        self.t, self.profile, self.tile, self.player = t, profile, tile, player
        put = self.put = t.action["put"]
        self.cells: tuple[int, int] | None = None
        self.xy = (0, 0, 0, 0)
        x, y, r = put
        step = b.STEP.get(r)  # `board.on_grid`, `board.second`
        if step is not None:
            x2, y2 = x + step[0], y + step[1]
            if 0 <= x < b.N and 0 <= y < b.N and 0 <= x2 < b.N and 0 <= y2 < b.N:
                self.cells, self.xy = (b.N * y + x, b.N * y2 + x2), (x, y, x2, y2)
        self._faults: list[str] | None = None
        self._matches: bool | None = None
        self.diffs: list[dict[tuple[int, int], str]] | None = None
        self.before: tuple[Grid, ...] = ()
        self.after: tuple[Grid, ...] = ()

    def read(self) -> list[dict[tuple[int, int], str]]:
        """`board.changed_cells` of each grid from the state before to the state after
        (the caller must not change them); `before` and `after` are the states' `grids`."""
        if self.diffs is None:
            before, after = grids(self.t.before), grids(self.t.after)
            mine = self.player - 1
            diffs: list[dict[tuple[int, int], str]] = []
            for i, (one, two) in enumerate(zip(before, after, strict=False)):
                if one is two:  # the same facts: the same rows
                    diffs.append({})
                elif i != mine or self.cells is None:
                    diffs.append(changed_cells(one, two))
                else:
                    diff = changed_cells(one, two, self.cells)
                    # the placement checks ask this grid's extent anyway: with it, the
                    # grid after the step gets its own without a scan (the next put's)
                    one.extent  # noqa: B018
                    two.grown(one, diff)
                    diffs.append(diff)
            self.before, self.after, self.diffs = before, after, diffs
        return self.diffs

    @property
    def matches(self) -> bool:
        """The player's grid gained exactly the tile's squares (in some order)."""
        if self._matches is None:
            diff = self.read()[self.player - 1]
            self._matches = sorted(diff.values()) == sorted(consts(self.profile).tiles[
                self.tile])
        return self._matches

    @property
    def faults(self) -> list[str]:
        """`board.placement_faults` of the put on the player's grid before the step."""
        if self._faults is None:
            c = consts(self.profile)
            grid = grids(self.t.before)[self.player - 1]
            self._faults = self._faults_on(grid, c.tiles[self.tile], c.size)
        return self._faults

    def _faults_on(self, grid: Grid, squares: tuple[str, str], size: int) -> list[str]:
        """`board.placement_faults(grid.g, put, squares, size)`, by the put's cell indexes
        (`g[2 * i]` is `cell(g, x, y)[0]` for cell i = 9y + x) and the grid's extent as
        `grid` knows it."""
        if self.cells is None:
            return ["KD-GRID"]
        g = grid.g
        i, j = self.cells
        faults = []
        if g[2 * i] != "_" or g[2 * j] != "_":  # `board.free`
            faults.append("KD-PLACE-NO-OVERLAP")
        x, y, x2, y2 = self.xy  # `board.within`
        box = grid.extent
        lo_x, hi_x, lo_y, hi_y = box if box is not None else (x, x, y, y)
        if not (max(hi_x, x, x2) - min(lo_x, x, x2) < size
                and max(hi_y, y, y2) - min(lo_y, y, y2) < size):
            faults.append("KD-PLACE-EXTENT")
        if not (_touches(g, i, squares[0][0]) or _touches(g, j, squares[1][0])):
            faults.append("KD-PLACE-CONNECT")
        return faults


def _touches(g: str, i: int, terrain: str) -> bool:
    """`board.touches` for cell i (9y + x)."""
    for n in b._AROUND[i]:
        first = g[2 * n]
        if first == "*" or first == terrain:
            return True
    return False


def changed_cells(before: Grid, after: Grid, hint: tuple[int, int] | None = None
                  ) -> dict[tuple[int, int], str]:
    """`board.changed_cells(before.g, after.g)`: with both grids shaped, only the rows that
    differ are compared cell by cell (a row's cells are its own characters in `g`). With a
    `hint` (two cell indexes, 9y + x), when the strings are equal outside those two cells,
    only they are compared."""
    one, two = before.g, after.g
    if before is after or one == two:
        return {}
    if not (before.shaped and after.shaped):
        return b.changed_cells(one, two)
    if hint is not None and hint[0] != hint[1]:
        lo, hi = hint if hint[0] < hint[1] else (hint[1], hint[0])
        a, c = 2 * lo, 2 * hi
        if one[:a] == two[:a] and one[a + 2:c] == two[a + 2:c] and one[c + 2:] == two[c + 2:]:
            found = {}
            was, now = one[a:a + 2], two[a:a + 2]
            if was != now:
                found[(lo % b.N, lo // b.N)] = now
            was, now = one[c:c + 2], two[c:c + 2]
            if was != now:
                found[(hi % b.N, hi // b.N)] = now
            return found
    out = {}
    for y, (one, two) in enumerate(zip(before.rows, after.rows, strict=True)):
        if one != two:
            for x in range(b.N):
                if one[2 * x] != two[2 * x] or one[2 * x + 1] != two[2 * x + 1]:
                    out[(x, y)] = two[2 * x:2 * x + 2]
    return out


# the last transition asked about, with its PutStep (None: not a step that puts a tile)
_LAST: tuple[Any, Any, PutStep | None] = (None, None, None)


def put_step(t: Transition, profile: Profile, placing: bool) -> PutStep | None:
    """`t`'s PutStep, kept as the last one asked about; `placing` is
    `_placing_put(t.before, t.action)`, which the caller works out only when `t` is not the
    transition last asked about (`_LAST[0]`)."""
    global _LAST
    step = None
    if placing:
        k = t.before["placing"][t.before["next"]]
        step = PutStep(t, profile, k["tile"], k["player"])
    _LAST = (t, profile, step)
    return step
