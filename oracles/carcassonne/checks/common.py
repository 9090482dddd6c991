"""What every Carcassonne stage-1 check reads: the shared board analysis of a state, a
step's events, its action kind, the profile facts asked at every step, and the board feature
an event names.

Reads canonical JSON and the oracles' own board (`board.Board`), never the reference engine.
Judges nothing and names no rule: the checks (`equipment`, `river`, `placement`, `claims`,
`scores`, `ending`, `protocol`, and the farms and tower stages) do.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from functools import cache
from typing import Any

from gamecert.oracles.base import Transition
from gamecert.oracles.carcassonne.board import Board, Cell, Feature, feature_key
from gamecert.schemas import first_error
from gamecert.spec import Profile

JSON = Any

_boards: OrderedDict[int, tuple[JSON, Board]] = OrderedDict()


def board(state: JSON, p: Profile | None = None) -> Board:
    """The analysis of `state`, shared by the oracles that look at the same transition;
    with `p`, its fields are joined as `p` reads CARC-FARM-FIELDS (a season's reading)."""
    hit = _boards.get(id(state))
    if hit is not None and hit[0] is state and (p is None or hit[1].river_joins == (
            p.variant("CARC-FARM-FIELDS") == "river-joins")):
        return hit[1]
    b = Board(state, profile=p)
    _boards[id(state)] = (state, b)  # holding `state` keeps its id from being reused
    if len(_boards) > 8:
        _boards.popitem(last=False)
    return b


@cache  # a profile's facts: asked at every step (profiles are frozen, hashed by identity)
def _n(p: Profile) -> int:
    players: int = p.param("CARC-PLAYERS", "players")
    return players


def _events(t: Transition, *types: str) -> list[JSON]:
    return [e for e in t.events if e.get("type") in types]


def _cell(xy: list[int]) -> Cell:
    return xy[0], xy[1]


def _is(t: Transition, kind: str) -> bool:
    return isinstance(t.action, dict) and t.action.get("type") == kind


def action_kind(action: JSON) -> str:
    """The kind of a step, from its action alone (the oracles' `on` sets name these): its
    type, as `_is` reads it; "" for an action without a text type, which no `on` names."""
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) else ""


# The checks bound to kinds of step answer NA at any other before reading the reply.
PLACE, DRAW, CLAIM = frozenset({"place"}), frozenset({"draw"}), frozenset({"claim"})


def _action_of(action: JSON, kind: str) -> bool:
    """`action` is a well-formed action of this kind (judges also see malformed probes)."""
    return (isinstance(action, dict) and action.get("type") == kind
            and (plainly_valid(action) or first_error("carcassonne-action", action) is None))


_TILE = re.compile(r"[A-Z][A-Z0-9]{0,3}")
_SPOTS = frozenset({"top", "right", "bottom", "left", "monastery", "top1", "top2", "right1",
                    "right2", "bottom1", "bottom2", "left1", "left2", "field"})


def plainly_valid(action: dict[str, Any]) -> bool:
    """A place, draw, discard, claim or pass written the plain way (ints that are ints, no
    other keys): valid under the action schema without asking it, which costs far more and
    would meet each new placement once. False says nothing: the schema is asked then."""
    kind, keys = action.get("type"), action.keys()
    if kind == "place" and keys == {"type", "tile", "at", "rotation"}:
        at, rotation = action["at"], action["rotation"]
        return (_tile(action["tile"]) and type(at) is list and len(at) == 2
                and type(at[0]) is int and type(at[1]) is int
                and type(rotation) is int and 0 <= rotation <= 3)
    if kind in ("draw", "discard") and keys == {"type", "tile"}:
        return _tile(action["tile"])
    if kind == "claim" and keys == {"type", "on"}:
        return type(action["on"]) is str and action["on"] in _SPOTS
    return kind == "pass" and keys == {"type"}


def _tile(tile: Any) -> bool:
    return type(tile) is str and _TILE.fullmatch(tile) is not None


def _key(kind: str, tiles: list[list[int]]) -> tuple[str, tuple[tuple[int, ...], ...]]:
    return feature_key(kind, tiles)


def _find(bd: Board, e: JSON) -> Feature | None:
    """The board feature an event names: same kind and tiles, preferring one complete exactly
    when the event says it was completed (a tile can hold several roads, so tiles alone can be
    ambiguous). None when no feature covers those tiles: CARC-FEATURE-JOIN's finding."""
    tiles = sorted(e["tiles"])
    complete = e.get("type") == "feature-completed"
    # (a tile list equal to `tiles` is as long: its tiles are a set of as many cells)
    n = len(tiles)
    found = [f for f in bd.features()
             if f.kind == e["feature"] and len(f.tiles) == n and f.tile_list() == tiles]
    for f in found:
        if f.complete == complete:
            return f
    return found[0] if found else None


@cache
def farms(p: Profile) -> bool:
    """The farms stage is played (CARC-FARM-FIELDS.enabled)."""
    return bool(p.param("CARC-FARM-FIELDS", "enabled"))
