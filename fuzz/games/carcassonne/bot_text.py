"""Carcassonne's raw bot replies for the referee, in the SYNCS 2025 protocol: passes, places,
claims and discards, framed right or wrong, and garbage. Text only: nothing here asks an
engine.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from hypothesis import strategies as st

from gamecert.fuzz.games.carcassonne.play import index
from gamecert.reference_engine.carcassonne.protocol import FIELD_WIRE, SPOT_WIRE
from gamecert.reference_engine.carcassonne.tiles import load_tiles
from gamecert.spec import Profile

# A pass is the one reply that is good whatever the tile and the board (in a claim step,
# from the mover): it comes most often, well framed, so the referee's accepted replies
# (CARC-PROTO-REPLY) are met in every campaign, not only its refusals.
REPLY_KINDS = st.sampled_from(["pass"] * 14 + ["place", "place", "claim", "claim", "discard",
                                              "fly", "garbage", "text"])
FRAMINGS = st.sampled_from(["ok"] * 8 + ["short", "long", "bytes", "oversize", "newline",
                                         "bare", "spaced", "unicode"])
GARBAGE = st.sampled_from(["", "\n", "0,", "2,{}", "5,{}", "3,{x}", "2,[]", "x,{}", "-2,{}",
                           "9999999,{}", "4097," + "x" * 4097])
NOISE = st.text(max_size=20)


def framed(body: str, how: str) -> str:
    """`body` in a frame, well counted or broken in one way."""
    if how in ("bytes", "unicode"):
        body = body[:-1] + ',"note":"caf\u00e9"}'  # one character, two UTF-8 bytes
    if how == "oversize":  # a valid reply padded past the limit
        body = body[:-1] + ',"pad":"' + "x" * 4100 + '"}'
    count = {"short": len(body) - 1, "long": len(body) + 1,
             "bytes": len(body.encode())}.get(how, len(body))
    if how == "bare":
        return body
    text = f"{count}, {body}" if how == "spaced" else f"{count},{body}"
    return text + "\n" if how == "newline" else text


@cache
def bot_text_strategy(profile: Profile) -> st.SearchStrategy[str]:
    """Framed replies: mostly passes (legal whenever the player_id is the mover's, which makes
    one in n of them good in a claim step), placements, claims and discards near the
    spring, each well framed or broken in one way, and plain garbage."""
    centre = profile.param("CARC-PROTO-REPLY", "centre")
    n = profile.param("CARC-PLAYERS", "players")
    ids = st.sampled_from([k.id for k in load_tiles()])
    player = st.one_of(st.integers(0, n - 1), st.sampled_from([-1, n, "0", None, True]))
    mover = st.integers(0, n - 1)
    near = st.integers(centre - 3, centre + 3)
    pos = st.one_of(st.tuples(near, near).map(list), st.sampled_from([[centre], "85,85"]))
    rotation = st.one_of(st.integers(0, 3), st.sampled_from([7, -1, "1"]))
    spot = st.sampled_from([*SPOT_WIRE.values(), "north_edge", "monastery"])
    # the protocol extension's replies, in the stages that play them
    farms = bool(profile.param("CARC-FARM-FIELDS", "enabled"))
    tower = bool(profile.param("CARC-TOWER-TILES", "enabled"))
    kinds = REPLY_KINDS
    if farms or tower:
        extra = (["farmer", "farmer"] if farms else []) + (
            ["floor", "floor", "floor", "cap", "ransom", "ransom", "exchange"] if tower else [])
        kinds = st.sampled_from(["pass"] * (14 + len(extra)) + [
            "place", "place", "claim", "claim", "discard", "fly", "garbage", "text", *extra])
    field_spot = st.sampled_from([*FIELD_WIRE.values(), "TOWER"])
    victim_spot = st.sampled_from([*SPOT_WIRE.values(), *FIELD_WIRE.values(), "TOWER"])
    capture = st.one_of(st.none(), st.fixed_dictionaries({"pos": pos, "placed_on": victim_spot}))

    @st.composite
    def reply(draw: st.DrawFn) -> str:
        kind = draw(kinds, label="reply kind")
        if kind == "garbage":
            return draw(GARBAGE, label="garbage")
        if kind == "text":
            return draw(NOISE, label="noise")
        if kind == "pass":
            body: dict[str, Any] = {"event_type": "move_place_meeple_pass",
                                    "player_id": draw(mover, label="player_id")}
        elif kind == "place":
            body = {"event_type": "move_place_tile", "player_id": draw(player, label="player"),
                    "tile": {"tile_type": draw(ids, label="tile"), "pos": draw(pos, label="pos"),
                             "rotation": draw(rotation, label="rotation")},
                    "player_tile_index": draw(index(4), label="index")}
        elif kind == "claim":
            body = {"event_type": "move_place_meeple", "player_id": draw(player, label="player"),
                    "tile": {"tile_type": draw(ids, label="tile"), "pos": draw(pos, label="pos"),
                             "rotation": 0},
                    "placed_on": draw(spot, label="placed_on")}
        elif kind == "discard":
            body = {"event_type": "move_discard_tile", "player_id": draw(player, label="player"),
                    "tile": {"tile_type": draw(ids, label="tile")},
                    "player_tile_index": draw(index(3), label="index")}
        elif kind == "farmer":
            body = {"event_type": "move_place_meeple", "player_id": draw(player, label="player"),
                    "tile": {"tile_type": draw(ids, label="tile"), "pos": draw(pos, label="pos"),
                             "rotation": 0},
                    "placed_on": draw(field_spot, label="placed_on")}
        elif kind == "floor":
            body = {"event_type": "move_tower_floor", "player_id": draw(mover, label="player"),
                    "tower_pos": draw(pos, label="tower_pos"),
                    "capture": draw(capture, label="capture")}
        elif kind == "cap":
            body = {"event_type": "move_tower_cap", "player_id": draw(mover, label="player"),
                    "tower_pos": draw(pos, label="tower_pos")}
        elif kind == "ransom":
            body = {"event_type": "move_pay_ransom", "player_id": draw(mover, label="player"),
                    "captor_id": draw(player, label="captor")}
        elif kind == "exchange":  # CARC-TOWER-EXCHANGE on-request (refused when immediate)
            body = {"event_type": "move_exchange_prisoners",
                    "player_id": draw(mover, label="player"),
                    "other_id": draw(player, label="other")}
        else:
            body = {"event_type": "move_fly", "player_id": draw(player, label="player")}
        return framed(json.dumps(body, separators=(",", ":")), draw(FRAMINGS, label="frame"))

    return reply()
