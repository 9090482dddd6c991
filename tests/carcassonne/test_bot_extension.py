"""gamecert's bot-protocol extension for stages 2 and 3 (schemas/carcassonne-bot-ext.schema.json):
farmers by half-edge, tower floors with a capture, caps and ransom, framed as in 2025; the
referee takes them only in the stage that plays them, and the CARC-PROTO-REPLY oracle agrees
with what it makes of them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamecert.oracles.base import OK
from gamecert.oracles.carcassonne.checks import proto_reply
from gamecert.reference_engine.carcassonne.engine import INVALID, CarcState, pack
from gamecert.reference_engine.carcassonne.protocol import frame, referee
from gamecert.reference_engine.contract import IllegalAction
from gamecert.schemas import first_error

from .helpers import CLOSED_RIVER, ENGINE, crafted, load, profile
from .test_tower import position, ransom_state

C = 85  # the wire grid's centre holds the spring


def msg(data: dict[str, Any]) -> str:
    assert first_error("carcassonne-bot-ext", data) is None, data
    return frame(json.dumps(data, separators=(",", ":")))


def judged(state: CarcState, text: str) -> Any:
    """The referee's action for `text`, checked by the CARC-PROTO-REPLY oracle."""
    action = ENGINE.action_to_json(state, ENGINE.referee(state, text))
    verdict = proto_reply(ENGINE.observe(state), text, action, state.profile)
    assert verdict is OK, verdict
    return action


def seed_picture(pid: str) -> CarcState:
    s = load(crafted(CLOSED_RIVER, pid=pid, hands=[["V"], [], [], []]))
    return ENGINE.apply(s, ("place", ENGINE.initial(profile(pid)).cfg.t.index["V"],
                            pack(1, -1), 3))[0]


def farmer(placed_on: str) -> str:
    return msg({"event_type": "move_place_meeple", "player_id": 0,
                "tile": {"tile_type": "V", "pos": [C + 1, C - 1], "rotation": 3},
                "placed_on": placed_on})


def test_a_farmer_reply_names_a_field_by_half_edge() -> None:
    s = seed_picture("syncs-2025-farms")
    assert judged(s, farmer("bottom_right_field")) == {"type": "claim", "on": "right2"}
    assert judged(s, farmer("top_left_field")) == {"type": "claim", "on": "top1"}
    with pytest.raises(IllegalAction, match="placed_on 'top_left_field' is not one of"):
        referee(ENGINE, seed_picture("syncs-2025-base"), farmer("top_left_field"))


def test_tower_replies_become_floors_caps_and_ransoms() -> None:
    s = load(position())
    floor = msg({"event_type": "move_tower_floor", "player_id": 0, "tower_pos": [C + 1, C - 1],
                 "capture": {"pos": [C + 3, C - 1], "placed_on": "MONASTARY"}})
    assert judged(s, floor) == {"type": "tower", "at": [1, -1],
                                "capture": {"at": [3, -1], "on": "monastery"}}
    bare = msg({"event_type": "move_tower_floor", "player_id": 0, "tower_pos": [C + 1, C - 1],
                "capture": None})
    assert judged(s, bare) == {"type": "tower", "at": [1, -1]}
    reopen = msg({"event_type": "move_tower_floor", "player_id": 0, "tower_pos": [C + 1, C - 1],
                  "capture": {"pos": [C + 1, C], "placed_on": "TOWER"}})
    assert judged(s, reopen)["capture"] == {"at": [1, 0], "on": "tower"}
    cap = msg({"event_type": "move_tower_cap", "player_id": 0, "tower_pos": [C + 1, C - 1]})
    assert judged(s, cap) == {"type": "cap", "at": [1, -1]}
    far = msg({"event_type": "move_tower_floor", "player_id": 0, "tower_pos": [C + 1, C - 1],
               "capture": {"pos": [C, C - 2], "placed_on": "left_edge"}})
    assert ENGINE.referee(s, far) == INVALID
    with pytest.raises(IllegalAction, match="CARC-TOWER-REACH"):
        referee(ENGINE, s, far)
    ransom = msg({"event_type": "move_pay_ransom", "player_id": 0, "captor_id": 1})
    with pytest.raises(IllegalAction, match="when asked to place a tile"):
        referee(ENGINE, s, ransom)
    assert judged(ransom_state(3), ransom) == {"type": "ransom", "captor": 2}
    with pytest.raises(IllegalAction, match="fewer than the ransom"):
        referee(ENGINE, ransom_state(2), ransom)


def test_tower_replies_are_unknown_before_the_tower_stage() -> None:
    s = seed_picture("syncs-2025-farms")
    cap = msg({"event_type": "move_tower_cap", "player_id": 0, "tower_pos": [C + 1, C - 1]})
    with pytest.raises(IllegalAction,
                       match="event_type 'move_tower_cap': query_place_meeple is answered"):
        referee(ENGINE, s, cap)


def test_the_schema_describes_queries_and_refuses_broken_replies() -> None:
    query = {"query_type": "query_place_meeple", "update": {
        "41": {"event_type": "event_meeple_captured", "captor_id": 0, "owner_id": 1,
               "pos": [86, 84], "placed_on": "TOWER", "to": "prison"},
        "42": {"event_type": "public_move_pay_ransom", "player_id": 1, "captor_id": 0,
               "points": 3}}}
    assert first_error("carcassonne-bot-ext", query) is None
    assert first_error("carcassonne-bot-ext", {"event_type": "move_tower_floor",
                                                "player_id": 0, "tower_pos": [86, 84]})
    assert first_error("carcassonne-bot-ext", {"event_type": "move_place_meeple",
                                                "player_id": 0, "tile": {"tile_type": "V",
                                                                         "pos": [86, 84],
                                                                         "rotation": 0},
                                                "placed_on": "north_field"})


def test_an_exchange_on_request_is_a_reply_to_the_tile_query() -> None:
    """CARC-TOWER-EXCHANGE = on-request (syncs-2025-tower-placed): move_exchange_prisoners,
    answered to query_place_tile, becomes the exchange action; one-sided, in the claim step
    or under the chosen reading (immediate) it is refused with the rule named."""
    placed = load(position("syncs-2025-tower-placed"))
    mutual = ((0, 1, 0, 0), (1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    s = ransom_state(0)._replace(cfg=placed.cfg, prisoners=mutual)
    ask = msg({"event_type": "move_exchange_prisoners", "player_id": 0, "other_id": 1})
    assert judged(s, ask) == {"type": "exchange", "with": 2}
    one_sided = s._replace(prisoners=((0, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0),
                                              (0, 0, 0, 0)))
    with pytest.raises(IllegalAction, match=r"do not hold each other's meeples "
                                            r"\(CARC-TOWER-EXCHANGE\)"):
        referee(ENGINE, one_sided, ask)
    with pytest.raises(IllegalAction, match="when asked to place a tile"):
        referee(ENGINE, placed, ask)
    with pytest.raises(IllegalAction, match="CARC-TOWER-EXCHANGE = immediate"):
        referee(ENGINE, ransom_state(3), ask)
    with pytest.raises(IllegalAction, match="other_id 7 is not a player id"):
        referee(ENGINE, s, frame(json.dumps({"event_type": "move_exchange_prisoners",
                                             "player_id": 0, "other_id": 7})))
    assert first_error("carcassonne-bot-ext", {"event_type": "move_exchange_prisoners",
                                                "player_id": 0}) is not None
