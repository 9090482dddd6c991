"""The Flit reference engine: exact rule cases, the contract, canonical JSON."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction
from gamecert.reference_engine.flit import Flit, FlitState
from gamecert.schemas import load_schema
from gamecert.spec import Profile, load_catalogue

CAT = load_catalogue("flit")
STD = CAT.profile()
GAME = Flit()
STATE_V = Draft202012Validator(load_schema("flit-state"))
EVENT_V = Draft202012Validator(load_schema("flit-event"))
ACTION_V = Draft202012Validator(load_schema("flit-action"))


def with_variant(rule: str, variant: str, **params: Any) -> Profile:
    base = CAT.profile()
    parameters = {k: dict(v) for k, v in base.parameters.items()}
    for key, value in params.items():
        rid, _, name = key.rpartition(".")
        parameters[rid][name] = value
    return dataclasses.replace(base, id="standard", variants={**base.variants, rule: variant},
                               parameters=parameters)


def position(pieces: dict[tuple[int, int], str], profile: Profile = STD,
             **fields: Any) -> FlitState:
    """A move-phase state with the given squares; every bot gets 2 far-away pieces unless
    it has some already."""
    w = h = 32
    board = ["0"] * (w * h)
    for (x, y), c in pieces.items():
        board[y * w + x] = c
    spare = {"1": [(16, 16), (18, 16)], "2": [(16, 20), (18, 20)], "3": [(16, 24), (18, 24)],
             "4": [(16, 28), (18, 28)]}
    for bot, squares in spare.items():
        if board.count(bot) < 2:
            for x, y in squares:
                board[y * w + x] = bot
    state = {"game": "flit", "profile": profile.id, "width": w, "height": h,
             "board": "".join(board), "phase": "move", "to_move": 1, "turn": 10, "passes": 0,
             "timeouts": [0, 0, 0, 0], "frozen": [False] * 4, "result": None}
    state.update(fields)
    return GAME.load(profile, state)


def sq(x: int, y: int) -> int:
    return y * 32 + x


def test_move_across_the_wrap_is_legal_and_converts_across_the_wrap() -> None:
    # (31, 5) touches (0, 5) only across the left-right wrap
    s = position({(0, 5): "1", (31, 9): "1"})
    assert ("move", sq(31, 9), sq(31, 5)) in GAME.legal(s)
    # (0, 31) touches (0, 0) across the top-bottom wrap, and the neutral at (31, 31)
    # across the left-right wrap: the move converts it
    s = position({(0, 0): "1", (10, 10): "1", (31, 31): "5"})
    after, events = GAME.apply(s, ("move", sq(10, 10), sq(0, 31)))
    assert after.board[sq(31, 31)] == 1
    assert {"type": "converted", "rule": "FLIT-CONVERT", "bot": 1, "at": [31, 31]} in events


def test_the_moving_piece_does_not_count_as_its_own_neighbour() -> None:
    s = position({(5, 5): "1", (20, 20): "1"})
    with pytest.raises(IllegalAction, match="touches no other piece"):
        GAME.apply(s, ("move", sq(5, 5), sq(5, 6)))
    assert ("move", sq(5, 5), sq(20, 21)) in GAME.legal(s)


def test_no_move_is_always_legal_and_counts_toward_all_pass() -> None:
    s = position({}, passes=3)
    assert ("pass",) in GAME.legal(s)
    s, _ = GAME.apply(s, ("pass",))
    s, events = GAME.apply(s, ("neutral", 0, False))
    assert s.phase == "over" and s.result and s.result["reasons"] == ["all-pass"]
    assert events[-1]["type"] == "game-ended"


def test_catch_up_ends_exactly_when_d_exceeds_m() -> None:
    # D = M + 1 ends, D = M does not: checked by the proof for all counts, here on boards
    from gamecert.oracles.flit.proofs import boundary_positions
    for label, state in boundary_positions(STD):
        s = GAME.load(STD, state)
        s, _ = GAME.apply(s, ("pass",))
        s, _ = GAME.apply(s, ("neutral", 0, False))
        ended = s.phase == "over" and "catch-up" in (s.result or {}).get("reasons", [])
        assert ended == ("D=M+1" in label), label


@pytest.mark.parametrize("variant, last_turn", [("at-cap", 32768), ("literal-exceeds", 32769)])
def test_turn_cap(variant: str, last_turn: int) -> None:
    prof = with_variant("FLIT-END-TURNCAP", variant)
    s = position({}, prof, turn=32766)
    turns = 32766
    while s.phase != "over":
        action = ("move", *_any_move(s)) if s.phase == "move" else ("neutral", 0, False)
        s, _ = GAME.apply(s, action)
        turns = s.turn
    assert turns == last_turn and s.result and "turn-cap" in s.result["reasons"]


def _any_move(s: FlitState) -> tuple[int, int]:
    return next(a for a in GAME.legal(s) if a[0] == "move")[1:]  # type: ignore[return-value]


def test_five_timeouts_freeze_and_frozen_turns_are_no_moves() -> None:
    s = position({}, timeouts=[4, 0, 0, 0])
    s, events = GAME.apply(s, ("timeout",))
    assert s.frozen[0] and {"type": "frozen", "rule": "FLIT-FREEZE", "bot": 1,
                            "cause": "timeouts"} in events
    s = s._replace(to_move=4, phase="neutral")
    s, events = GAME.apply(s, ("neutral", 0, False))
    assert (s.phase, s.to_move) == ("neutral", 1)  # bot 1's frozen turn happened as a no move
    assert events[-1] == {"type": "no-move", "rule": "FLIT-FREEZE", "bot": 1, "cause": "frozen"}
    skipped = with_variant("FLIT-FREEZE", "skipped")
    t = position({}, skipped, frozen=[True, False, False, False], to_move=4, phase="neutral")
    t, _ = GAME.apply(t, ("neutral", 0, False))
    assert (t.phase, t.to_move) == ("move", 2)


def test_tie_for_first_has_no_winner() -> None:
    assert GAME.winner([5, 7, 7, 2]) is None
    assert GAME.winner([5, 8, 7, 2]) == 2


def test_setup_order_and_availability() -> None:
    s = GAME.initial(STD)
    bots = []
    rng = random.Random(4)
    while s.phase == "setup":
        outcomes = GAME.chance(s)
        assert sum(o.probability for o in outcomes) == 1
        bots.append(s.to_move)
        s, _ = GAME.apply(s, rng.choice(outcomes).action)
    assert bots == [1, 2, 3, 4, 1, 2, 3, 4] and s.phase == "move" and s.to_move == 1
    t = GAME.initial(STD)
    t, _ = GAME.apply(t, ("setup", sq(3, 3)))
    with pytest.raises(IllegalAction):
        GAME.apply(t, ("setup", sq(3, 4)))  # empty but not available


@pytest.mark.parametrize("profile", sorted(CAT.profiles))
def test_chance_outcomes_sum_to_one_and_match_their_draws(profile: str) -> None:
    prof = CAT.profile(profile)
    s = position({(3, 3): "5"}, prof, phase="neutral")
    outcomes = GAME.chance(s)
    assert sum(o.probability for o in outcomes) == 1
    hits = [o for o in outcomes if (o.action[0] == "neutral" and o.action[2])
            or (o.action[0] == "neutral-list" and o.action[1] >= 0)]
    expected = Fraction(1, 16) if profile != "list-neutrals" else Fraction(1, 6)
    avail = len(GAME.available_squares(s))
    # 1/16 of the 1/1024 chance of each available square, or 1/6 spread over the list
    per_square = Fraction(1, 1024) if profile != "list-neutrals" else Fraction(1, avail)
    assert sum(o.probability for o in hits) == expected * avail * per_square
    rng = random.Random(1)
    for _ in range(50):
        assert GAME.random_chance(s, rng) in {o.action for o in outcomes}


@pytest.mark.parametrize("profile", sorted(CAT.profiles))
def test_random_games_keep_canonical_json_exact(profile: str) -> None:
    prof = CAT.profile(profile)
    rng = random.Random(profile)
    s = GAME.initial(prof)
    for _ in range(1500):
        who = GAME.current(s)
        if who == TERMINAL:
            break
        if who == CHANCE:
            action = GAME.random_chance(s, rng)
        else:
            legal = GAME.legal(s)
            action = rng.choice([*legal, ("timeout",), ("invalid",)])
            assert GAME.random_action(s, rng) in legal
        js = GAME.action_to_json(s, action)
        assert not list(ACTION_V.iter_errors(js))
        assert GAME.action_from_json(s, js) == action
        s, events = GAME.apply(s, action)
        observed = GAME.observe(s)
        assert not list(STATE_V.iter_errors(observed))
        for e in events:
            assert not list(EVENT_V.iter_errors(e)), e
        assert GAME.observe(GAME.load(prof, observed)) == observed


def test_a_full_random_game_ends_by_a_rule() -> None:
    rng = random.Random(7)
    s = GAME.initial(STD)
    while GAME.current(s) != TERMINAL:
        who = GAME.current(s)
        s, _ = GAME.apply(s, GAME.random_chance(s, rng) if who == CHANCE
                          else GAME.random_action(s, rng))
    assert s.result is not None and s.result["reasons"]
    assert s.result["counts"] == [s.board.count(b) for b in (1, 2, 3, 4)]


@pytest.mark.parametrize("change, message", [
    ({"board": "0" * 10}, "1024"),
    ({"width": 31}, "31x32"),
    ({"phase": "dancing"}, "not a Flit state"),
    ({"to_move": None}, "to_move must be null exactly"),
    ({"board": "51" + "1" * 9 + "2" * 2 + "3" * 2 + "4" * 2 + "0" * 1007}, "touches a piece"),
])
def test_load_rejects_bad_states_clearly(change: dict[str, Any], message: str) -> None:
    state = GAME.observe(position({}))
    state.update(change)
    with pytest.raises(BadState, match=message):
        GAME.load(STD, state)


@pytest.mark.parametrize("text, kind", [
    ("5 5 5 5\n", "pass"), ("16 16 17 17\n", "invalid"), ("garbage", "invalid"),
    ("1 2 3", "invalid"), ("40 0 1 0\n", "invalid"), ("-1 0 0 0", "invalid"),
    ("1 2 3 99999999999999999999999999", "invalid"), ("18 16 17 15\n", "invalid"),
    ("16 16 17 17 1", "invalid"), ("", "invalid"),
    ("0000000000016 16 16 16", "pass"),  # the value counts, not how it is written
    ("\u0661\u0666 16 16 16", "invalid"),  # Arabic-Indic digits are not 0-9
    ("16 16\n17 17", "invalid"),  # one line only
    ("16\u200316 16 16", "invalid"),  # separators are spaces or tabs
    ("\t16 16 16 16 \r\n", "pass"),
])
def test_referee(text: str, kind: str) -> None:
    s = position({})
    assert GAME.referee(s, text)[0] == kind


def test_referee_accepts_a_valid_reply_as_that_move() -> None:
    s = position({})
    assert GAME.referee(s, "16 16 18 15\n") == ("move", sq(16, 16), sq(18, 15))
