"""Bad input end to end: a clear error (in-process, over the wire, from the command line) or a
finding, never a traceback. The moves: a tile not in the hand, a cell off every open cell, a
rotation of 7, a claim on an edge that does not exist; the state: 8 meeples for one player."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from examples.engines.carcassonne.board import diagonal_ok
from gamecert.fuzz.cli.main import main
from gamecert.fuzz.engines.engine import Engine, InProcessEngine, Refused
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.carcassonne.protocol import frame, referee
from gamecert.reference_engine.contract import IllegalAction, Session

from .helpers import crafted, profile

ROOT = Path(__file__).resolve().parents[2]
BOARD = [(0, 0, "RS", 0), (0, -1, "RE", 0), (1, -1, "W", 3)]
PLACE = crafted(BOARD, hands=[["A", "U", "V"], [], [], []])
# U at [2, -1] turned once continues the W's road: the claim step of that tile
CLAIM = crafted([*BOARD, (2, -1, "U", 1)], hands=[["A", "V"], [], [], []], step="claim",
                placed=(2, -1))
U_THERE = {"type": "place", "tile": "U", "at": [2, -1], "rotation": 1}

BAD_MOVES = [  # (state, action, what the refusal says)
    (PLACE, {**U_THERE, "tile": "C"}, "tile C is not in player 1's hand"),
    (PLACE, {**U_THERE, "tile": "ZZ"}, "no tile 'ZZ' in the tile catalogue"),
    (PLACE, {**U_THERE, "at": [5, 5]}, "touches no placed tile (CARC-PLACE-ADJACENT)"),
    (PLACE, {**U_THERE, "at": [3, -2]}, "touches no placed tile (CARC-PLACE-ADJACENT)"),
    (PLACE, {**U_THERE, "at": [0, 0]}, "cell [0, 0] already holds a tile"),
    (PLACE, {**U_THERE, "at": [10**9, 0]}, "off any reachable part of the board"),
    (PLACE, {**U_THERE, "at": [2.0, -1]}, "is not a cell [x, y] of two integers"),
    (PLACE, {**U_THERE, "rotation": 7}, "rotation 7 is not 0, 1, 2 or 3"),
    (PLACE, {**U_THERE, "rotation": True}, "rotation True is not 0, 1, 2 or 3"),
    (CLAIM, {"type": "claim", "on": "top"}, "top edge is a field: nothing to claim there "
                                            "(CARC-CLAIM-PLACED-TILE)"),
    (CLAIM, {"type": "claim", "on": "monastery"}, "the placed tile has no monastery"),
    (CLAIM, {"type": "claim", "on": "north"}, "a claim on 'north': a claim names a side"),
    (CLAIM, {"type": "claim", "on": "left", "x": 1}, "a claim action has no field x"),
    (PLACE, {"type": "claim", "on": "left"}, "no tile was just placed"),
    (PLACE, {"type": "fly"}, "type 'fly' is not one of place, draw, discard, claim, pass"),
]
IDS = ["not-in-hand", "unknown-tile", "far-cell", "diagonal-cell", "taken-cell", "huge-cell",
       "float-cell", "rotation-7", "rotation-bool", "claim-field-edge", "claim-no-monastery",
       "claim-north", "claim-extra-field", "claim-in-place-step", "unknown-type"]


def eight_meeples() -> dict[str, Any]:
    """Player 1 with a meeple on the board and 7 more in the supply."""
    state = crafted(BOARD, meeples=[(1, -1, "right", 1)], hands=[["U"], [], [], []])
    state["supply"][0] = 7
    return state


@pytest.fixture(params=["in-process", "subprocess"])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    if request.param == "in-process":
        yield InProcessEngine(reference_session("carcassonne"))
        return
    sub = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "carcassonne"],
                           cwd=str(ROOT))
    try:
        yield sub
    finally:
        sub.close()


def test_bad_moves_are_refused_clearly(engine: Engine) -> None:
    for (state, action, message), label in zip(BAD_MOVES, IDS, strict=True):
        before = engine.load_state(state)
        with pytest.raises(Refused) as refused:
            engine.apply(action)
        assert refused.value.kind == "illegal", label
        assert message in refused.value.message, (label, refused.value.message)
        assert engine.observe() == before, label  # a refusal changes nothing
    # the good move still works afterwards
    engine.load_state(PLACE)
    after, events = engine.apply(U_THERE)
    assert after["step"] == "claim" and events[0]["type"] == "tile-placed"


def test_eight_meeples_are_refused_at_load(engine: Engine) -> None:
    with pytest.raises(Refused) as refused:
        engine.load_state(eight_meeples())
    assert refused.value.kind == "bad-state"
    assert "player 1 has 8 meeples (1 on the board, 7 in the supply); CARC-MEEPLE-SUPPLY " \
           "gives 7" in refused.value.message


def test_bad_bot_replies_are_invalid_with_a_reason(engine: Engine) -> None:
    """The same bad moves sent as SYNCS 2025 replies: the wire says `invalid` (the bot would
    be banned) and the protocol module says why."""
    game = reference_game("carcassonne")
    state = game.load(profile(), PLACE)

    def place(tile: str, pos: list[int], rotation: int, index: int) -> str:
        return frame(json.dumps({"event_type": "move_place_tile", "player_id": 0,
                                 "tile": {"tile_type": tile, "pos": pos, "rotation": rotation},
                                 "player_tile_index": index}))

    replies = [(place("C", [87, 84], 1, 0), "tile C is not in your hand"),
               (place("U", [90, 90], 1, 1), "touches no placed tile"),
               (place("U", [87, 84], 7, 1), "rotation 7 is not 0, 1, 2 or 3")]
    engine.load_state(PLACE)
    for text, message in replies:
        assert engine.bot_output(text) == {"type": "invalid"}
        with pytest.raises(IllegalAction, match=message):
            referee(game, state, text)  # type: ignore[arg-type]
    good = place("U", [87, 84], 1, 1)
    assert engine.bot_output(good) == U_THERE


def test_lockstep_probes_bad_moves_without_a_finding_and_flags_a_mutant() -> None:
    prof = profile()
    ls = Lockstep(reference_game("carcassonne"),
                  InProcessEngine(reference_session("carcassonne")), prof,
                  oracles_for("carcassonne"), coverage=Coverage())
    ls.start({"kind": "state", "state": PLACE})
    for state, action, _ in BAD_MOVES:
        if state is PLACE:
            assert ls.probe(action) is True  # refused by both: nothing to report
    diagonal = {**U_THERE, "at": [2, 0]}  # touches the W only at a corner
    mutant = Lockstep(reference_game("carcassonne"),
                      InProcessEngine(Session(diagonal_ok.ENGINE(), "diagonal")), prof,
                      oracles_for("carcassonne"), coverage=Coverage())
    mutant.start({"kind": "state", "state": PLACE})
    with pytest.raises(Finding) as found:
        mutant.probe({**diagonal, "tile": "A", "rotation": 0})
    assert found.value.rules == ["CARC-PLACE-ADJACENT"]
    assert found.value.kind == "accepted-illegal"


def test_replay_refuses_a_trace_starting_from_eight_meeples(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "eight.json"
    trace.write_text(json.dumps({
        "format": "gamecert-trace/1", "game": "carcassonne", "profile": "syncs-2025-base",
        "seed": None, "start": {"kind": "state", "state": eight_meeples()},
        "ops": [{"op": "apply", "action": U_THERE}]}))
    assert main(["replay", str(trace), "--engine", "reference"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gamecert: error: ")
    assert "start state rejected by the reference: player 1 has 8 meeples" in err
    assert "Traceback" not in err
    # an illegal move inside a trace is named with its operation, also without a traceback
    trace.write_text(json.dumps({
        "format": "gamecert-trace/1", "game": "carcassonne", "profile": "syncs-2025-base",
        "start": {"kind": "state", "state": PLACE},
        "ops": [{"op": "apply", "action": {**U_THERE, "rotation": 7}}]}))
    assert main(["replay", str(trace)]) == 2
    err = capsys.readouterr().err
    assert "operation 0: action" in err and "rotation 7 is not 0, 1, 2 or 3" in err
