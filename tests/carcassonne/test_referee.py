"""The referee: SYNCS 2025 framed replies to actions, and clear refusals of bad replies.

`protocol.referee` refuses a bad reply with a message a competitor can act on;
`ENGINE.referee` (what the wire's bot_output answers) turns the same reply into the referee
action INVALID, since a bad reply bans its bot rather than being an engine error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamecert.reference_engine.carcassonne.engine import INVALID, PASS, CarcState, pack
from gamecert.reference_engine.carcassonne.protocol import (
    frame,
    from_wire_pos,
    referee,
    to_wire_pos,
)
from gamecert.reference_engine.contract import IllegalAction

from .helpers import ENGINE, crafted, load, profile

T = ENGINE.initial(profile()).cfg.t
BOARD = [(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -1, "W", 3)]
PLACE_STATE = load(crafted(BOARD, hands=[["A", "U", "U"], [], [], []]))
CLAIM_STATE = ENGINE.apply(PLACE_STATE, ("place", T.index["U"], pack(2, -1), 1))[0]


def msg(data: dict[str, Any]) -> str:
    return frame(json.dumps(data))


def place(tile: str = "U", pos: list[int] | None = None, rotation: Any = 1,
          index: Any = 1, player: Any = 0) -> str:
    return msg({"event_type": "move_place_tile", "player_id": player,
                "tile": {"tile_type": tile, "pos": pos or [87, 84], "rotation": rotation},
                "player_tile_index": index})


def refused(state: CarcState, text: str, message: str) -> None:
    """The reply is refused with `message`, and the engine's referee calls it INVALID."""
    with pytest.raises(IllegalAction, match=message):
        referee(ENGINE, state, text)
    assert ENGINE.referee(state, text) == INVALID
    assert ENGINE.action_to_json(state, INVALID) == {"type": "invalid"}


def meeple(on: str, pos: list[int] | None = None, rotation: int = 1, tile: str = "U") -> str:
    return msg({"event_type": "move_place_meeple", "player_id": 0,
                "tile": {"tile_type": tile, "pos": pos or [87, 84], "rotation": rotation},
                "placed_on": on})


def test_wire_positions_centre_the_spring() -> None:
    cfg = PLACE_STATE.cfg
    assert to_wire_pos(cfg, [0, 0]) == [85, 85]
    assert from_wire_pos(cfg, [85, 83]) == [0, -2]


def test_good_replies_become_actions() -> None:
    assert ENGINE.referee(PLACE_STATE, place()) == ("place", T.index["U"], pack(2, -1), 1)
    assert ENGINE.referee(PLACE_STATE, place(index=2)) == ("place", T.index["U"], pack(2, -1), 1)
    assert ENGINE.referee(CLAIM_STATE, meeple("left_edge")) == ("claim", 0)
    assert ENGINE.referee(CLAIM_STATE, meeple("right_edge")) == ("claim", 0)
    passing = msg({"event_type": "move_place_meeple_pass", "player_id": 0})
    assert ENGINE.referee(CLAIM_STATE, passing) == ("pass",)


def test_replies_are_read_as_the_competition_reads_them() -> None:
    """Its engine reads the count with int() and the JSON into pydantic models in lax mode:
    these odd but readable replies are the same moves there, so they must be here."""
    want = ("place", T.index["U"], pack(2, -1), 1)
    body = ('{"event_type":"move_place_tile","player_id":"0","tile":{"tile_type":"U",'
            '"pos":[87.0,84],"rotation":true},"player_tile_index":1.0,"note":"extra"}')
    assert referee(ENGINE, PLACE_STATE, frame(body)) == want
    passing = frame('{"event_type":"move_place_meeple_pass","player_id":0}')
    assert passing.startswith("53,")
    for text in (" " + passing, "+" + passing, "0" + passing, "\n" + passing, "5_3" + passing[2:]):
        assert referee(ENGINE, CLAIM_STATE, text) == PASS, text
    with pytest.raises(IllegalAction, match="at most 3 characters of count"):
        referee(ENGINE, PLACE_STATE, "\n" + place())  # a 3-digit count after a stray newline
    # the claim names the placed tile by pos and rotation; its tile_type is not compared
    assert ENGINE.referee(CLAIM_STATE, meeple("left_edge", tile="X")) == ("claim", 0)


def test_the_hand_is_indexed_in_the_order_dealt_and_drawn() -> None:
    """The competition's engine indexes the hand as it was dealt and drawn; the state keeps
    it sorted, so the caller passes the deal order (bot-check's codec does)."""
    want = ("place", T.index["U"], pack(2, -1), 1)
    assert referee(ENGINE, PLACE_STATE, place(index=0), hand=["U", "A", "U"]) == want
    with pytest.raises(IllegalAction, match=r"player_tile_index 1 is A in your hand \(U, A, U"):
        referee(ENGINE, PLACE_STATE, place(index=1), hand=["U", "A", "U"])
    with pytest.raises(IllegalAction, match=r"index 2 is past the end of your hand"):
        referee(ENGINE, PLACE_STATE, place(index=2), hand=["U", "A"])


def test_the_example_reply_of_the_rules_file_frames_correctly() -> None:
    text = ('{"event_type":"move_place_tile","player_id":0,"tile":{"tile_type":"R2",'
            '"pos":[85,83],"rotation":0},"player_tile_index":0}')
    assert frame(text).startswith("121,")


@pytest.mark.parametrize(("text", "message"), [
    ("hello", r"reads at most 3 characters of count before the comma"),
    ("1000," + "x" * 1000, r"reads at most 3 characters of count"),  # 4 digits: never read
    ("5,{}", r"count says 5 characters but only 2 follow"),
    ("2,{}\n", r"count says 2 characters but 3 follow the comma: the engine reads the rest"),
    ("x1,{}", r"the count 'x1' before the comma is not a number"),
    ("3,{x}", r"not valid JSON"),
    ("2,[]", r"must be a JSON object"),
    ("3,NaN", r"not valid JSON"),
    (msg({"event_type": "move_fly"}), r"event_type 'move_fly': query_place_tile is answered"),
    (place(player=1), r"player_id 1, but player_id 0 is to move"),
    (place(player="x"), r"player_id 'x' is not an integer"),
    (place(tile="C", index=0), r"tile C is not in your hand \(hand: A, U, U\)"),
    (place(tile="Z9"), r"'Z9' is not a tile type a bot may place"),
    (place(tile="RE"), r"'RE' is not a tile type a bot may place"),
    (place(tile=7), r"tile_type 7 is not a string"),
    (place(index=0), r"player_tile_index 0 is A in your hand \(A, U, U, in the order dealt"),
    (place(index=3), r"player_tile_index 3 is not 0-2"),
    (place(rotation=7), r"rotation 7 is not 0, 1, 2 or 3"),
    (place(rotation="x"), r"rotation 'x' is not an integer"),
    (place(pos=[120, 30]), r"touches no placed tile \(CARC-PLACE-ADJACENT\)"),
    (place(pos=[85, 85]), r"already holds a tile"),
    (place(pos=[87, 84], rotation=0), r"faces a .* edge \(CARC-PLACE-MATCH\)"),
    (place(pos=[1, 2, 3]), r"pos \[1, 2, 3\] is not \[x, y\]"),
    (place(pos=[1, 2.5]), r"is not \[x, y\] with two integers"),
    (place(pos=[10**6, 85]), r"far from every placed tile"),
    (msg({"event_type": "move_place_tile", "player_id": 0}), r"has no 'tile'"),
    (msg({"event_type": "move_place_meeple_pass", "player_id": 0}),
     r"query_place_tile is answered with move_place_tile"),
    (msg({"event_type": "move_discard_tile", "player_id": 0,
          "tile": {"tile_type": "A"}, "player_tile_index": 0}), r"a tile of your hand can be"),
])
def test_bad_place_replies_are_refused_clearly(text: str, message: str) -> None:
    refused(PLACE_STATE, text, message)


@pytest.mark.parametrize(("text", "message"), [
    (meeple("north_edge"), r"placed_on 'north_edge' is not one of"),
    (meeple("top_edge"), r"top edge is a field: nothing to claim"),
    (meeple("MONASTARY"), r"no monastery"),
    (meeple("left_edge", pos=[86, 84]), r"must be the one just placed, at \[87, 84\] with "
                                        r"rotation 1"),
    (meeple("left_edge", rotation=2), r"at \[87, 84\] with rotation 1, not at \[87, 84\] with "
                                      r"rotation 2"),
    (place(), r"query_place_meeple is answered with move_place_meeple or"),
])
def test_bad_claim_replies_are_refused_clearly(text: str, message: str) -> None:
    refused(CLAIM_STATE, text, message)


def test_claim_on_a_claimed_feature_is_refused_by_the_referee() -> None:
    s = load(crafted(BOARD, meeples=[(1, -1, "right", 2)], hands=[["U"], [], [], []]))
    placed = ENGINE.apply(s, ("place", T.index["U"], pack(2, -1), 1))[0]
    refused(placed, meeple("left_edge"), "CARC-CLAIM-UNCLAIMED")


def test_discard_extension_when_nothing_fits() -> None:
    s = load(crafted(BOARD[:2], hands=[["C"], [], [], []]))
    discard = msg({"event_type": "move_discard_tile", "player_id": 0,
                   "tile": {"tile_type": "C"}, "player_tile_index": 0})
    assert ENGINE.referee(s, discard) == ("discard", T.index["C"])
    refused(s, place(tile="C", index=0, pos=[86, 85], rotation=0), "reply move_discard_tile")


def test_no_reply_is_expected_during_a_draw() -> None:
    s = ENGINE.initial(PLACE_STATE.profile)
    with pytest.raises(IllegalAction, match="no player is asked to move"):
        ENGINE.referee(s, place())


def test_random_garbage_never_escapes_as_another_exception() -> None:
    import random
    rng = random.Random(4)
    pieces = ['{"event_type":', '"move_place_tile"', '"move_place_meeple"', ',', ':', '[', ']',
              '{', '}', '"tile"', '"pos"', '1', '85', '"U"', 'null', 'true', '"placed_on"',
              '"player_id"', '0', '"rotation"', '"tile_type"', '"player_tile_index"', '-3']
    n_refused = 0
    for _ in range(3000):
        body = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 25)))
        for state in (PLACE_STATE, CLAIM_STATE):
            try:
                action = referee(ENGINE, state, frame(body))
            except IllegalAction as exc:
                assert str(exc)
                assert ENGINE.referee(state, frame(body)) == INVALID
                n_refused += 1
                continue
            assert action in ENGINE.legal(state)
            assert ENGINE.referee(state, frame(body)) == action
    assert n_refused > 5000
