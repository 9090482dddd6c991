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
TERRAINS, CROWNS = "_*cfglwm", "0123"  # ROW's two sets of characters


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
    def size(self) -> Any:
        return self.profile.param("KD-PLACE-EXTENT", "size")


@cache
def consts(profile: Profile) -> Consts:
    """Cached by the profile's identity (profiles compare and hash by identity)."""
    return Consts(profile)


class Grid:
    """One grid's facts: `g` is `board.grid`'s joined string of its rows; `shaped` says its
    rows are 9 strings of 18 characters (row y of `g` is then `rows[y]`)."""

    __slots__ = ("castle_ok", "g", "rows", "rows_ok", "shaped")

    def __init__(self, rows: tuple[Any, ...]) -> None:
        g = "".join(rows)
        self.g, self.rows = g, rows
        self.shaped = len(rows) == b.N and all(len(r) == 2 * b.N for r in rows)
        # KD-PROTO-INPUT: 9 lines of 9 two-character cells (`ROW`): with 9 rows of 18
        # characters, the same as every first character a terrain (or the castle, or empty)
        # and every second one a crown count
        self.rows_ok = self.shaped and not g[0::2].strip(TERRAINS) and not g[1::2].strip(
            CROWNS)
        # KD-GRID: the castle on (4, 4) and nowhere else
        self.castle_ok = b.cell(g, 4, 4) == "*0" and g.count("*") == 1

    def rows_ok_plain(self) -> bool:
        """`rows_ok` by `ROW`, row by row (for the tests)."""
        return len(self.rows) == 9 and all(ROW.fullmatch(r) for r in self.rows)


@lru_cache(maxsize=512)
def grid_facts(rows: tuple[Any, ...]) -> Grid:
    return Grid(rows)


_STATES: dict[int, tuple[JSON, tuple[Grid, ...]]] = {}
_STATES_KEPT = 16


def grids(s: JSON) -> tuple[Grid, ...]:
    """The facts of each of `s`'s grids, in order. Raises whatever reading them raises."""
    key = id(s)
    hit = _STATES.get(key)
    if hit is not None and hit[0] is s:
        return hit[1]
    out = tuple(grid_facts(tuple(rows)) for rows in s["grids"])
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
            got = self._diffs[i] = changed_cells(before[i], after[i])
        return got

    @property
    def faults(self) -> list[str]:
        """`board.placement_faults` of the put on the player's grid before the step."""
        if self._faults is None:
            c = consts(self.profile)
            g = grids(self.t.before)[self.player - 1].g
            self._faults = b.placement_faults(g, self.put, c.tiles[self.tile], c.size)
        return self._faults


def changed_cells(before: Grid, after: Grid) -> dict[tuple[int, int], str]:
    """`board.changed_cells(before.g, after.g)`: with both grids shaped, only the rows that
    differ are compared cell by cell (a row's cells are its own characters in `g`)."""
    if before is after:
        return {}
    if not (before.shaped and after.shaped):
        return b.changed_cells(before.g, after.g)
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
