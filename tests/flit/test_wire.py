"""The wire protocol: every reply matches the schema; bad requests get error replies."""

from __future__ import annotations

import io
import json
import sys

from jsonschema import Draft202012Validator

from gamecert.fuzz.engines.server import serve
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.reference_engine import reference_session
from gamecert.schemas import load_schema

WIRE = Draft202012Validator(load_schema("wire"))


def converse(lines: list[str]) -> list[dict[str, object]]:
    out = io.StringIO()
    serve(reference_session("flit"), io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_a_session_of_every_operation_matches_the_schema() -> None:
    requests = [
        {"id": 1, "op": "hello"}, {"id": 2, "op": "new_game", "profile": "standard", "seed": 4},
        {"id": 3, "op": "legal"},
        {"id": 4, "op": "apply", "action": {"type": "setup", "at": [3, 3]}},
        {"id": 5, "op": "observe"}, {"id": 6, "op": "apply", "action": {"type": "pass"}},
        {"id": 7, "op": "bot_output", "text": "1 1 1 1"}, {"id": 8, "op": "bye"},
    ]
    for r in requests:
        assert not list(WIRE.iter_errors(r)), r
    replies = converse([json.dumps(r) for r in requests])
    assert [r["id"] for r in replies] == list(range(1, 9))
    for reply in replies:
        assert not list(WIRE.iter_errors(reply)), reply
    assert replies[0]["game"] == "flit"
    assert replies[2]["to_move"] == "chance" and replies[2]["outcomes"][0]["p"] == "1/1024"
    assert replies[5]["ok"] is False and replies[5]["error"]["kind"] == "illegal"
    assert replies[6]["ok"] is False  # nobody is asked to move during setup


def test_malformed_requests_get_error_replies_and_the_server_goes_on() -> None:
    replies = converse(["{not json", '"just a string"', '{"id": 1}', '{"id": 2, "op": "fly"}',
                        '{"id": 3, "op": "apply"}', '{"id": 4, "op": "load_state", "state": 7}',
                        "[" * 100_000 + "]" * 100_000,
                        '{"id": 6, "op": "new_game", "profile": [1]}',
                        '{"id": 7, "op": "hello"}'])
    assert [r["ok"] for r in replies] == [False] * 8 + [True]
    assert replies[5]["error"]["kind"] == "bad-state"
    assert replies[6]["error"]["message"] == "JSON nested too deeply"
    assert replies[7]["error"]["kind"] == "bad-state"
    for reply in replies:
        assert not list(WIRE.iter_errors(reply)), reply


def test_round_trips_through_a_real_process() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "flit"])
    engine.start()
    try:
        assert engine.hello()["game"] == "flit"
        state = engine.new_game()
        for _ in range(50):
            assert engine.observe() == state
    finally:
        engine.close()
    assert engine.proc is None
