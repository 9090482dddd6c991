"""A fast, one-sided check of a Kingdomino state's shape: the schema's fast path.

`surely_well_formed(o)` is True only for a document the state schema
(`schemas/kingdomino-state.schema.json`) accepts, and it is True for every state an engine
observes (whole numbers as ints, strings as str). It says nothing else: on False the loader
asks jsonschema, which decides and words the error. jsonschema takes about 7 ms a state, and
a campaign loads a state at every start, reload and probe listing, so without this the
schema check was a Kingdomino campaign's largest single cost (docs/speed.md).

It must stay stricter than the schema, never looser (`tests/kingdomino/test_state_shape.py`
compares it with jsonschema on states played and broken); it must not check the state's
sense (reference_engine.kingdomino.load does).
"""

from __future__ import annotations

import re
from typing import Any

KEYS = frozenset(("game", "profile", "players", "phase", "turn", "to_move", "kings", "bag",
                  "line", "placing", "next", "grids", "stopped", "discarded", "result"))
PHASES = frozenset(("order", "deal", "play", "over"))
# fullmatch: stricter than the schema's search for `^...$` (which lets a final newline by)
ROW = re.compile(r"(?:[_*cfglwm][0-3]){9}")
RESULT_KEYS = frozenset(("scores", "territory", "crowns", "final", "winners"))


def _int_in(x: Any, low: int, high: int) -> bool:
    return type(x) is int and low <= x <= high


def _tile(x: Any) -> bool:
    return type(x) is int and 1 <= x <= 48


def _player(x: Any) -> bool:
    return type(x) is int and 1 <= x <= 4


def _tiles(x: Any) -> bool:
    """An array of distinct tiles."""
    return type(x) is list and all(_tile(t) for t in x) and len(set(x)) == len(x)


def _ints(x: Any) -> bool:
    return type(x) is list and 2 <= len(x) <= 4 and all(type(v) is int for v in x)


def _entries(x: Any, tile_or_null: bool, player_or_null: bool) -> bool:
    """`line` or `placing`: up to four {tile, player} objects."""
    if type(x) is not list or len(x) > 4:
        return False
    for e in x:
        if type(e) is not dict or e.keys() != {"tile", "player"}:
            return False
        tile, player = e["tile"], e["player"]
        if not (_tile(tile) or (tile_or_null and tile is None)):
            return False
        if not (_player(player) or (player_or_null and player is None)):
            return False
    return True


def _result(x: Any) -> bool:
    if x is None:
        return True
    if type(x) is not dict or x.keys() != RESULT_KEYS:
        return False
    winners = x["winners"]
    return (all(_ints(x[k]) for k in ("scores", "territory", "crowns", "final"))
            and type(winners) is list and len(winners) >= 1 and all(map(_player, winners)))


def _grids(x: Any) -> bool:
    if type(x) is not list or not 2 <= len(x) <= 4:
        return False
    for rows in x:
        if type(rows) is not list or len(rows) != 9:
            return False
        for row in rows:
            if type(row) is not str or ROW.fullmatch(row) is None:
                return False
    return True


def surely_well_formed(o: Any) -> bool:
    """True only if the state schema accepts `o` (see the module's docstring)."""
    if type(o) is not dict or o.keys() != KEYS:
        return False
    kings, stopped, to_move = o["kings"], o["stopped"], o["to_move"]
    return (o["game"] == "kingdomino" and type(o["game"]) is str
            and type(o["profile"]) is str
            and _int_in(o["players"], 2, 4)
            and type(o["phase"]) is str and o["phase"] in PHASES
            and type(o["turn"]) is int and o["turn"] >= 1
            and (to_move is None or _player(to_move))
            and type(kings) is list and 2 <= len(kings) <= 4
            and all(_int_in(k, 1, 2) for k in kings)
            and _tiles(o["bag"])
            and _entries(o["line"], tile_or_null=False, player_or_null=True)
            and _entries(o["placing"], tile_or_null=True, player_or_null=False)
            and _int_in(o["next"], 0, 3)
            and _grids(o["grids"])
            and type(stopped) is list and 2 <= len(stopped) <= 4
            and all(type(s) is bool for s in stopped)
            and _tiles(o["discarded"])
            and _result(o["result"]))
