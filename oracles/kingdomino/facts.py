"""Facts several Kingdomino oracles derive from the same JSON, worked out once (issue 15).

Only speed lives here: each fact is what `board`'s plain functions give for the same JSON,
kept so that the next oracle (or the next step) asking it does not work it out again.

* `consts(profile)`: the profile's parameters the oracles read at every step (each read
  once, when first asked, by the same `board` function as before).
* `grid_facts(rows)`: one grid's joined string and its row and castle facts, cached by the
  value of its rows (a grid is the same from step to step until its owner places a tile).
* `grids(state)`: the `grid_facts` of each of a state's grids, cached by the state object's
  identity (the lockstep shows the reference's own objects when the engine agrees, and a
  step's `after` is the next step's `before`). The cache holds the state alive, so an id is
  never reused for another object while its entry exists.
* `put_step(t, profile)`: a transition that puts a tile: the acting king, its tile and the
  placement's faults, worked out once for the several checks that ask (one entry: the
  lockstep asks every check about one transition object before the next).

Nothing here judges: the oracles in `__init__` do, and fall back to their plain
computation whenever a fast one cannot read the JSON, so an unreadable reply gets the very
verdict (or exception) it got before. It must not import the reference engine.
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
        if self._extent is not None or before._extent is None or not diff:
            return
        if any(v[0] == "_" for v in diff.values()):
            return
        box = before._extent[0]
        xs = [x for x, _ in diff]
        ys = [y for _, y in diff]
        if box is not None:
            xs += box[:2]
            ys += box[2:]
        self._extent = ((min(xs), max(xs), min(ys), max(ys)),)

    def rows_ok_plain(self) -> bool:
        """`rows_ok` by `ROW`, row by row (for the tests)."""
        return len(self.rows) == 9 and all(ROW.fullmatch(r) for r in self.rows)


# rows seen to match `ROW` (bounded): grids share most of their rows, and a grid that gains
# a tile changes one or two
_GOOD_ROWS: set[str] = set()


def _rows_match(rows: tuple[str, ...]) -> bool:
    """Every row matches `ROW` (the plain reading); those that do are remembered."""
    if len(_GOOD_ROWS) > 4096:
        _GOOD_ROWS.clear()
    for r in rows:
        if not ROW.fullmatch(r):
            return False
        _GOOD_ROWS.add(r)
    return True


@lru_cache(maxsize=512)
def grid_facts(rows: tuple[Any, ...]) -> Grid:
    return Grid(rows)


_STATES: dict[int, tuple[JSON, tuple[Grid, ...]]] = {}
_STATES_KEPT = 16
# the rows (copies) and facts of the grids of the state read last: most grids are the same
# at the next state, and comparing rows is cheaper than looking them up
_PREV: tuple[list[list[Any]], tuple[Grid, ...]] = ([], ())


def grids(s: JSON) -> tuple[Grid, ...]:
    """The facts of each of `s`'s grids, in order. Raises whatever reading them raises."""
    global _PREV
    key = id(s)
    hit = _STATES.get(key)
    if hit is not None and hit[0] is s:
        return hit[1]
    prev_rows, prev = _PREV
    kept = len(prev)
    facts, copies = [], []
    for i, rows in enumerate(s["grids"]):
        if i < kept and rows == prev_rows[i]:  # equal rows: the same facts
            facts.append(prev[i])
            copies.append(prev_rows[i])
        else:
            facts.append(grid_facts(tuple(rows)))
            copies.append(list(rows))
    out = tuple(facts)
    _PREV = (copies, out)
    if len(_STATES) >= _STATES_KEPT:
        del _STATES[next(iter(_STATES))]  # the oldest
    _STATES[key] = (s, out)  # `s` kept alive with its entry: its id stays its own
    return out


class PutStep:
    """A step that puts a tile (`_placing_put` holds): the acting king's tile and player,
    and (when first asked) the placement's faults on its grid before the step."""

    __slots__ = ("_diffs", "_faults", "player", "profile", "put", "t", "tile")

    def __init__(self, t: Transition, profile: Profile, tile: int, player: int) -> None:
        self.t, self.profile, self.tile, self.player = t, profile, tile, player
        self.put: list[int] = t.action["put"]
        self._faults: list[str] | None = None
        self._diffs: dict[int, dict[tuple[int, int], str]] = {}

    def diff(self, i: int, before: tuple[Grid, ...], after: tuple[Grid, ...]
             ) -> dict[tuple[int, int], str]:
        """`board.changed_cells` of grid `i` (from 0) from `before` to `after`, the
        `grids` of this step's states (the caller must not change the dict it returns)."""
        got = self._diffs.get(i)
        if got is None:
            one, two = before[i], after[i]
            hint = None
            if i == self.player - 1 and b.on_grid(self.put):  # the put's two cells
                x, y, r = self.put
                x2, y2 = b.second(x, y, r)
                hint = (b.N * y + x, b.N * y2 + x2)
            got = self._diffs[i] = changed_cells(one, two, hint)
            if hint is not None:
                # the placement checks ask this grid's extent anyway: with it, the grid
                # after the step gets its own without a scan (it is the next put's)
                one.extent  # noqa: B018
                two.grown(one, got)
        return got

    @property
    def faults(self) -> list[str]:
        """`board.placement_faults` of the put on the player's grid before the step."""
        if self._faults is None:
            c = consts(self.profile)
            grid = grids(self.t.before)[self.player - 1]
            self._faults = placement_faults(grid, self.put, c.tiles[self.tile], c.size)
        return self._faults


def placement_faults(grid: Grid, put: list[int], squares: tuple[str, str], size: int
                     ) -> list[str]:
    """`board.placement_faults(grid.g, ...)`, with the grid's extent as `grid` knows it."""
    g = grid.g
    if not b.on_grid(put):
        return ["KD-GRID"]
    faults = []
    if not b.free(g, put):
        faults.append("KD-PLACE-NO-OVERLAP")
    # `board.within`, with the extent from the facts
    x, y, r = put
    x2, y2 = b.second(x, y, r)
    box = grid.extent
    lo_x, hi_x, lo_y, hi_y = box if box is not None else (x, x, y, y)
    if not (max(hi_x, x, x2) - min(lo_x, x, x2) < size
            and max(hi_y, y, y2) - min(lo_y, y, y2) < size):
        faults.append("KD-PLACE-EXTENT")
    if not b.connected(g, put, squares):
        faults.append("KD-PLACE-CONNECT")
    return faults


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
        lo, hi = sorted(hint)
        a, c = 2 * lo, 2 * hi
        if one[:a] == two[:a] and one[a + 2:c] == two[a + 2:c] and one[c + 2:] == two[c + 2:]:
            return {(i % b.N, i // b.N): two[2 * i:2 * i + 2] for i in (lo, hi)
                    if one[2 * i:2 * i + 2] != two[2 * i:2 * i + 2]}
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
    """`t`'s PutStep; `placing` is `_placing_put(t.before, t.action)`, worked out by the
    caller only when `t` is not the transition last asked about (see `last_put_step`)."""
    global _LAST
    step = None
    if placing:
        k = t.before["placing"][t.before["next"]]
        step = PutStep(t, profile, k["tile"], k["player"])
    _LAST = (t, profile, step)
    return step


def last_put_step(t: Transition, profile: Profile) -> tuple[bool, PutStep | None]:
    """(True, its PutStep or None) when `t` is the transition last asked about."""
    last = _LAST
    if last[0] is t and last[1] is profile:
        return True, last[2]
    return False, None
