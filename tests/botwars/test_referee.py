"""The referee on bad input: malformed replies disqualify; invalid moves are ignored as the
profile's reading of BOTWARS-MOVE-INVALID says (both readings); time-outs likewise."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamecert.oracles.base import OK
from gamecert.oracles.botwars import ORACLES
from gamecert.reference_engine.botwars import BotWars
from gamecert.spec import load_catalogue

from .boards import put, state

CAT = load_catalogue("botwars")
ENGINE = BotWars()
FORMAT = next(o for o in ORACLES if o.rule == "BOTWARS-FORMAT-DQ")
FIELD = put("." * 400, s100="1", s101="1", s120="1", s300="2", s301="2")


def position(profile: str = "standard", phase: str = "p1") -> Any:
    return ENGINE.load(CAT.profile(profile), state(FIELD, phase=phase, profile=profile))


BAD = ["", "   ", "moves", "[", "[{\"from\": 100, \"to\": 80}", "{\"from\": 100, \"to\": 80}",
       "42", "null", "\"[]\"", "[100, 80]", "[[100, 80]]", "[{\"from\": 100}]",
       "[{\"to\": 80}]", "[{\"from\": true, \"to\": 80}]", "[{\"from\": 100, \"to\": 80.0}]",
       "[{\"from\": \"100\", \"to\": 80}]", "[{\"from\": null, \"to\": 80}]",
       "[{\"from\": 100, \"to\": 80}, 7]", "[{\"from\": NaN, \"to\": 80}]",
       "[" * 100_000 + "]" * 100_000]


@pytest.mark.parametrize("text", BAD, ids=range(len(BAD)))
@pytest.mark.parametrize("phase", ["p1", "p2"])
def test_malformed_replies_disqualify(text: str, phase: str) -> None:
    s = position(phase=phase)
    action = ENGINE.referee(s, text)
    assert action == ("bad-format",)
    before = ENGINE.observe(s)
    assert FORMAT.referee is not None
    assert FORMAT.referee(before, text, ENGINE.action_to_json(s, action), CAT.profile()) is OK
    after, events = ENGINE.apply(s, action)
    seen = ENGINE.observe(after)
    other = "p2" if phase == "p1" else "p1"
    assert seen["phase"] == "over" and seen["endReason"] == "disqualified"
    assert seen[phase]["disqualified"] and not seen[other]["disqualified"]
    assert seen["winner"] == other and seen["grid"] == before["grid"]
    assert [e["type"] for e in events] == ["disqualified", "game-ended"]


@pytest.mark.parametrize("text", ["[]", " [ ] \n", "[{\"from\": 100, \"to\": 80}]",
                                  "[{\"to\": 80, \"from\": 100, \"why\": \"north\"}]",
                                  "[{\"from\": -5, \"to\": 99999999999999999999}]"])
def test_well_formed_replies_are_taken_as_sent(text: str) -> None:
    s = position()
    action = ENGINE.referee(s, text)
    assert action[0] == "moves"
    assert [{"from": f, "to": t} for f, t in action[1]] == [
        {"from": m["from"], "to": m["to"]} for m in json.loads(text)]
    assert FORMAT.referee is not None
    assert FORMAT.referee(ENGINE.observe(s), text, ENGINE.action_to_json(s, action),
                          CAT.profile()) is OK


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-500, 500) | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["from", "to", "x"]), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(value=json_values, noise=st.sampled_from(["", " ", "\n", "x"]))
def test_referee_agrees_with_the_format_oracle(value: Any, noise: str) -> None:
    s = position()
    text = json.dumps(value) + noise
    action = ENGINE.action_to_json(s, ENGINE.referee(s, text))
    assert FORMAT.referee is not None
    assert FORMAT.referee(ENGINE.observe(s), text, action, CAT.profile()) is OK


# --- invalid moves, both readings ----------------------------------------------------------
LIST = "[{\"from\": 100, \"to\": 80}, {\"from\": 101, \"to\": 102}, {\"from\": 120, \"to\": 141}]"


def test_invalid_move_loses_the_whole_turn_by_default() -> None:
    assert CAT.profile().variant("BOTWARS-MOVE-INVALID") == "lose-turn"
    s = position()
    action = ENGINE.referee(s, LIST)
    after, events = ENGINE.apply(s, action)
    assert ENGINE.observe(after)["pending"] == []
    (lost,) = events
    assert lost["type"] == "turn-lost" and lost["player"] == "p1"
    assert [(b["index"], b["reason"]) for b in lost["invalid"]] == [(2, "not-adjacent")]
    assert after.phase == "p2" and not after.dq[0]


def test_invalid_move_alone_is_dropped_when_the_profile_says_so() -> None:
    s = position("lenient")
    assert s.profile.variant("BOTWARS-MOVE-INVALID") == "drop-move"
    after, events = ENGINE.apply(s, ENGINE.referee(s, LIST))
    assert ENGINE.observe(after)["pending"] == [{"from": 100, "to": 80},
                                                {"from": 101, "to": 102}]
    assert [(e["type"], e["index"], e["breaks"]) for e in events] == [
        ("move-invalid", 2, "BOTWARS-MOVE")]


@pytest.mark.parametrize(("profile", "moved"), [("standard", []), ("lenient", [(300, 280)])])
def test_p2_invalid_moves_in_the_turn_it_resolves(profile: str, moved: list[Any]) -> None:
    s = position(profile, phase="p2")
    text = "[{\"from\": 300, \"to\": 280}, {\"from\": 301, \"to\": 301}, {\"from\": 5, \"to\": 6}]"
    after, events = ENGINE.apply(s, ENGINE.referee(s, text))
    assert [(e["from"], e["to"]) for e in events if e["type"] == "moved"] == moved
    assert after.turns == 11 and after.phase == "p1"
    stays = [e["at"] for e in events if e["type"] == "stayed"]
    assert stays == ([301] if profile == "lenient" else [])


@pytest.mark.parametrize(("profile", "dq"), [("standard", True), ("lenient", False)])
def test_time_out_per_reading(profile: str, dq: bool) -> None:
    s = position(profile)
    after, events = ENGINE.apply(s, ("timeout",))
    seen = ENGINE.observe(after)
    assert (seen["endReason"] == "disqualified") is dq
    assert seen["p1"]["disqualified"] is dq
    if not dq:
        assert seen["phase"] == "p2" and seen["pending"] == []
        assert events == [{"type": "timed-out", "rule": "BOTWARS-TIME-LIMIT", "player": "p1"}]


@pytest.mark.parametrize("text", ["[{\"from\": 100, \"to\": 1.0}]",
                                  "[{\"from\": 1e2, \"to\": 80}]"])
def test_numbers_with_a_fraction_or_exponent_are_not_integers(text: str) -> None:
    assert ENGINE.referee(position(), text) == ("bad-format",)
