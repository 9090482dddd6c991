"""The referee checks of the bots' protocol: a message is one well-counted frame around a
JSON object (CARC-PROTO-FRAME), and an accepted reply becomes exactly the move it asks
for, from the player to move (CARC-PROTO-REPLY), in the 2025 protocol and gamecert's
extension (fields, The Tower).

On a bot's text, the state it answered and the referee's action only, never the reference
engine (which replies are invalid is checked against the reference's referee). Binds no
rule id to a check: `checks/__init__.py` does.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gamecert.oracles.base import NA, OK, Verdict, Violation, expect
from gamecert.oracles.carcassonne.board import FIELD_SPOTS
from gamecert.oracles.carcassonne.checks.common import JSON, _cell, board, farms
from gamecert.spec import Profile

PLACED_ON = {"top_edge": "top", "right_edge": "right", "bottom_edge": "bottom",
             "left_edge": "left", "MONASTARY": "monastery"}
# gamecert's protocol extension (schemas/carcassonne-bot-ext.schema.json): fields by half-edge
FIELD_PLACED_ON = {"top_left_field": "top1", "top_right_field": "top2",
                   "right_top_field": "right1", "right_bottom_field": "right2",
                   "bottom_right_field": "bottom1", "bottom_left_field": "bottom2",
                   "left_bottom_field": "left1", "left_top_field": "left2",
                   "enclosed_field": "field"}


_LAX_INT = re.compile(r"\s*[+-]?[0-9]+(?:_[0-9]+)*(?:\.0*)?\s*")


def _frame(text: str, p: Profile) -> JSON:
    """The JSON of one message as CARC-PROTO-FRAME reads it: a count of at most count_chars - 1
    characters read as int() reads them, a comma, exactly that many characters."""
    head = p.param("CARC-PROTO-FRAME", "count_chars")
    comma = text.find(",", 0, head)
    if comma < 0:
        return None
    try:
        count = int(text[:comma])
    except ValueError:
        return None
    if count > p.param("CARC-PROTO-FRAME", "max_chars") or len(text) - comma - 1 != max(count,
                                                                                        0):
        return None
    try:
        return json.loads(text[comma + 1:], parse_constant=_no_constant)
    except ValueError:
        return None


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _lax(value: Any) -> Any:
    """An integer member as CARC-PROTO-REPLY reads it (lax: 1, 1.0, "1", true); else as is."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _LAX_INT.fullmatch(value):
        return int(float(value.strip().replace("_", ""))) if "." in value else int(value)
    return value


INVALID = {"type": "invalid"}  # the referee's verdict on a reply that bans its bot
_2025_MOVES = ("move_place_tile", "move_place_meeple", "move_place_meeple_pass")


def proto_frame(state: JSON, text: str, action: JSON, p: Profile) -> Verdict:
    """A message that is not one well-counted frame around a JSON object is invalid."""
    if isinstance(_frame(text, p), dict):
        return OK  # well framed (what it asks for is CARC-PROTO-REPLY's)
    return expect(action == INVALID, f"the engine accepted the malformed message "
                                     f"{text[:60]!r} as {action}")


def proto_reply(state: JSON, text: str, action: JSON, p: Profile) -> Verdict:
    """An accepted reply becomes exactly the move it asks for, from the player to move.
    (Which well-framed replies are invalid is checked against the reference's referee.)"""
    data = _frame(text, p)
    if not isinstance(data, dict) or action == INVALID:
        return NA
    if not isinstance(action, dict):
        return Violation(f"the referee's answer {action!r} is not an action")
    centre = p.param("CARC-PROTO-REPLY", "centre")
    kind = data.get("event_type")
    player_id = data.get("player_id")
    if kind not in _2025_MOVES and isinstance(player_id, bool):
        player_id = None  # the extension's members are read strictly
    if (_lax(player_id) if kind in _2025_MOVES else player_id) != (state["to_move"] or 0) - 1:
        return Violation(f"accepted a reply with player_id {data.get('player_id')!r} for player "
                         f"{state['to_move']}")
    raw = data.get("tile")
    tile: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if kind == "move_place_tile":
        pos = [_lax(v) for v in tile.get("pos") or [0, 0]]
        want = {"type": "place", "tile": tile.get("tile_type"),
                "at": [pos[0] - centre, pos[1] - centre], "rotation": _lax(tile.get("rotation"))}
        return expect(action == want, f"the reply asked for {want}, the referee made {action}")
    if kind == "move_discard_tile":
        return expect(action == {"type": "discard", "tile": tile.get("tile_type")},
                      f"the discard reply became {action}")
    if kind == "move_place_meeple_pass":
        return expect(action == {"type": "pass"}, f"the pass reply became {action}")
    if kind == "move_place_meeple":
        names = {**PLACED_ON, **(FIELD_PLACED_ON if farms(p) else {})}
        spot = names.get(str(data.get("placed_on")))
        if spot is None or action.get("type") != "claim":
            return Violation(f"the claim reply became {action}")
        bd = board(state, p)
        cell = _cell(state["placed"])
        if spot in FIELD_SPOTS:
            same = bd.field_at(cell, spot) is bd.field_at(cell, action["on"])
            there = bd.field_at(cell, spot)
        else:
            same = bd.feature_at(cell, spot) is bd.feature_at(cell, action["on"])
            there = bd.feature_at(cell, spot)
        return expect(same and there is not None,
                      f"placed_on {data.get('placed_on')} became a claim on {action['on']}")
    tower = p.param("CARC-TOWER-TILES", "enabled")
    if tower and kind == "move_pay_ransom":
        captor = data.get("captor_id")
        return expect(action == {"type": "ransom", "captor": (captor if isinstance(captor, int)
                                                              else -9) + 1},
                      f"the ransom reply became {action}")
    if tower and kind == "move_exchange_prisoners":
        other = data.get("other_id")
        return expect(action == {"type": "exchange", "with": (other if isinstance(other, int)
                                                              else -9) + 1},
                      f"the exchange reply became {action}")
    if tower and kind in ("move_tower_floor", "move_tower_cap"):
        raw_at = data.get("tower_pos") or [0, 0]
        at = [raw_at[0] - centre, raw_at[1] - centre]
        if kind == "move_tower_cap":
            return expect(action == {"type": "cap", "at": at}, f"the cap reply became {action}")
        floor: dict[str, Any] = {"type": "tower", "at": at}
        capture = data.get("capture")
        if isinstance(capture, dict):
            where = {**PLACED_ON, **FIELD_PLACED_ON, "TOWER": "tower"}.get(
                str(capture.get("placed_on")))
            cpos = capture.get("pos") or [0, 0]
            victim: dict[str, Any] = {"at": [cpos[0] - centre, cpos[1] - centre], "on": where}
            floor["capture"] = victim
            got = action.get("capture")
            # the engine names a meeple's feature by its canonical spot: compare the feature
            if isinstance(got, dict) and got.get("at") == victim["at"] and \
                    where not in (None, "tower") and got.get("on") != where:
                bd, c = board(state), _cell(got["at"])
                look = bd.field_at if where in FIELD_SPOTS else bd.feature_at
                if look(c, str(where)) is not None and look(c, str(where)) is look(c, got["on"]):
                    victim["on"] = got["on"]
        return expect(action == floor, f"the floor reply asked for {floor}, the referee made "
                                       f"{action}")
    return Violation(f"the referee accepted event_type {kind!r}")
