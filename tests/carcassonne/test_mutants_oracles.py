"""Oracles in lockstep: a hand-made situation per mutant, played beside the reference, ends in
a finding that names exactly the mutant's rule (and the same moves are clean on the
reference). These pin down the attribution rules the campaigns rely on: a missing completion
is its kind's completion rule, a score at the wrong time is CARC-SCORE-TIMING, meeples left
behind are CARC-MEEPLE-RETURN, a river edge facing a field is CARC-RIVER-MEETS-RIVER and not
CARC-PLACE-MATCH, and so on."""

from __future__ import annotations

import json
from typing import Any

import pytest

from examples.engines import load
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import NA, OK, Transition, Violation, oracles_for
from gamecert.oracles.carcassonne import ORACLES
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.carcassonne.protocol import frame
from gamecert.reference_engine.contract import Session

from .helpers import crafted, profile

BY_RULE = {o.rule: o for o in ORACLES}
RIVER_START = [(0, 0, "RS", 0), (0, -1, "RE", 0)]
ROAD_END = [*RIVER_START, (1, -1, "W", 3)]
LOOP = [*RIVER_START, (1, -2, "V", 3), (1, -1, "V", 2), (2, -1, "V", 1)]
MONASTERY = [*RIVER_START, (1, -1, "B", 0), (0, -2, "E", 0), (1, -2, "E", 0), (2, -2, "E", 0),
             (2, -1, "E", 1), (2, 0, "E", 2)]
TOWN_CAP = [*RIVER_START, (1, -1, "E", 1)]  # a town edge facing [2, -1]


def place(tile: str, x: int, y: int, rotation: int) -> dict[str, Any]:
    return {"type": "place", "tile": tile, "at": [x, y], "rotation": rotation}


def river_state(hand: str, pile: dict[str, int] | None = None) -> dict[str, Any]:
    """The river phase with the spring and R5 (a curve to the right) placed and `hand` drawn;
    the other river tiles are in the pile (or, those left out of `pile`, discarded)."""
    from gamecert.reference_engine.carcassonne.tiles import load_tiles

    tiles = load_tiles()
    left = {t.id: t.count for t in tiles.of_set("river")}
    for used in ("RS", "R5", hand):
        left[used] -= 1
    pile = {k: n for k, n in left.items() if n} if pile is None else pile
    o = crafted([(0, 0, "RS", 0), (0, -1, "R5", 2)], phase="river", hands=[[hand], [], [], []],
                river_pile=pile)
    o["discarded"] = sorted(k for k, n in left.items() for _ in range(n - pile.get(k, 0)))
    o["deck"] = {t.id: t.count for t in tiles.of_set("land")}
    return o


def run(engine: Any, state: dict[str, Any], ops: list[tuple[str, Any]]) -> None:
    ls = Lockstep(reference_game("carcassonne"), engine, profile(), oracles_for("carcassonne"),
                  coverage=Coverage())
    ls.start({"kind": "state", "state": state})
    for op, arg in ops:
        {"step": ls.step, "probe": ls.probe, "legal": lambda _: ls.compare_legal(),
         "text": ls.referee}[op](arg)


CASES = [  # mutant, start, operations
    ("road_loop_open", crafted(LOOP, meeples=[(1, -2, "right", 1)], hands=[[], [], ["V"], []],
                               to_move=3), [("step", place("V", 2, -2, 0))]),
    ("meeples_kept", crafted(ROAD_END, meeples=[(1, -1, "right", 1)], hands=[["W"], [], [], []]),
     [("step", place("W", 2, -1, 1))]),
    ("score_before_claim", crafted(ROAD_END, hands=[["W"], [], [], []]),
     [("step", place("W", 2, -1, 1))]),
    ("monastery_8", crafted(MONASTERY, meeples=[(1, -1, "monastery", 3)],
                            hands=[["B"], [], [], []]), [("step", place("B", 1, 0, 0))]),
    ("town_incomplete_rate", crafted(TOWN_CAP, meeples=[(1, -1, "right", 2)],
                                     hands=[["E"], [], [], []]), [("step", place("E", 2, -1, 3))]),
    # M (a bannered town) joins the town cap, then the next player closes the town with an E
    ("banners_lost_in_join", crafted(TOWN_CAP, hands=[["M"], ["E"], [], []]),
     [("step", place("M", 2, -1, 0)), ("step", {"type": "pass"}),
      ("step", {"type": "draw", "tile": "A"}), ("step", place("E", 2, -2, 2)),
      ("step", {"type": "pass"})]),
    ("no_stop_at_50", crafted(ROAD_END, meeples=[(1, -1, "right", 1)],
                              hands=[["W"], [], [], []], scores=[48, 0, 0, 0]),
     [("step", place("W", 2, -1, 1))]),
    ("claim_stays_open", crafted(ROAD_END, hands=[["U"], [], [], []]),
     [("step", place("U", 2, -1, 1)), ("step", {"type": "claim", "on": "left"})]),
    ("hand_of_two", crafted(ROAD_END, hands=[["U"], ["A", "V"], [], []]),
     [("step", place("U", 2, -1, 1)), ("step", {"type": "pass"})]),
    ("uturn_allowed", river_state("R9"), [("legal", None)]),
    # R9 turned 0 at the river's end: its left edge, a field, faces R5's river edge
    ("river_meets_field", river_state("R9"), [("probe", place("R9", 1, -1, 0))]),
    ("field_meets_road", crafted(ROAD_END, hands=[["E"], [], [], []]),
     [("probe", place("E", 2, -1, 0))]),
    ("river_anywhere", river_state("R2"), [("probe", place("R2", -1, 0, 0))]),
    ("lake_any_time", {**river_state("R2"), "hands": [[]] * 4, "step": "draw", "pending": [1],
                       "river_pile": {"R1": 1, "R2": 2, "R3": 1, "R4": 1, "R6": 1, "R7": 1,
                                      "R8": 1, "R9": 1, "RE": 1}}, [("legal", None)]),
    ("player_id_unchecked", crafted([*ROAD_END, (2, -1, "U", 1)], step="claim",
                                    placed=(2, -1)),
     [("text", frame(json.dumps({"event_type": "move_place_meeple_pass", "player_id": 2})))]),
    ("frame_length_unchecked", crafted([*ROAD_END, (2, -1, "U", 1)], step="claim",
                                       placed=(2, -1)),
     [("text", "52," + json.dumps({"event_type": "move_place_meeple_pass", "player_id": 0},
                                  separators=(",", ":")))]),
]


@pytest.mark.parametrize(("name", "start", "ops"), CASES, ids=[c[0] for c in CASES])
def test_a_mutant_is_named_by_its_rule_alone(name: str, start: dict[str, Any],
                                             ops: list[tuple[str, Any]]) -> None:
    m = load("carcassonne", name)
    run(InProcessEngine(reference_session("carcassonne")), start, ops)  # clean
    with pytest.raises(Finding) as found:
        run(InProcessEngine(Session(m.ENGINE(), name)), start, ops)
    assert found.value.rules == [m.RULE], found.value.message


def test_the_lake_discarded_at_the_end_of_the_river_ends_the_phase() -> None:
    """The river pile is empty and the lake, drawn last, fits nowhere: discarding it ends the
    river phase (the lake oracle used to want the lake placed or still in the pile)."""
    from examples.engines.carcassonne.deck.discard_when_fits import ENGINE as Discarding

    game = reference_game("carcassonne")
    state = game.load(profile(), river_state("RE", {}))
    before = game.observe(state)
    after, events = Discarding().apply(state, ("discard", state.cfg.t.index["RE"]))
    t = Transition(before, {"type": "discard", "tile": "RE"}, game.observe(after), events)
    assert any(e["type"] == "river-phase-ended" for e in events)
    assert BY_RULE["CARC-RIVER-LAKE-ENDS"].check(t, profile()) is OK  # type: ignore[misc]


def test_proto_oracles_read_invalid_as_a_refusal() -> None:
    state = crafted([*ROAD_END, (2, -1, "U", 1)], step="claim", placed=(2, -1))
    good = frame(json.dumps({"event_type": "move_place_meeple_pass", "player_id": 0}))
    invalid, passing = {"type": "invalid"}, {"type": "pass"}
    frame_hook = BY_RULE["CARC-PROTO-FRAME"].referee
    reply_hook = BY_RULE["CARC-PROTO-REPLY"].referee
    assert frame_hook is not None and reply_hook is not None
    assert frame_hook(state, "5,{}", invalid, profile()) is OK
    assert isinstance(frame_hook(state, good + "\n", passing, profile()), Violation)
    assert frame_hook(state, good, passing, profile()) is OK
    assert reply_hook(state, good, invalid, profile()) is NA  # judged beside the reference
    assert reply_hook(state, good, passing, profile()) is OK
    wrong = frame(json.dumps({"event_type": "move_place_meeple_pass", "player_id": True}))
    assert isinstance(reply_hook(state, wrong, passing, profile()), Violation)
