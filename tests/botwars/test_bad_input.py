"""Bad input through the engine interface, in-process and over the wire: a reply that is not
JSON, or not a list of {from, to} integer objects, disqualifies the bot (the referee's
verdict, then applied); invalid moves are handled as the profile's reading says; a late bot
likewise. An engine that crashes on such input is a finding, never a crash of the harness."""

from __future__ import annotations

from typing import Any

import pytest

from gamecert.fuzz.engines.engine import Engine
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.step.lockstep import Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine.botwars import BotWars

from .boards import put, state
from .fuzzing import CAT, WHERE, mutant_engine, reference_engine

FIELD = put("." * 400, s100="1", s101="1", s120="1", s300="2", s301="2")
NOT_JSON = ["", "nope", "[{\"from\": 100, \"to\": 80}", "[" * 5000, "\x00", "[] []"]
WRONG_SHAPE = ["null", "{}", "42", "\"[]\"", "{\"from\": 100, \"to\": 80}", "[100, 80]",
               "[[100, 80]]", "[{\"from\": 100}]", "[{\"from\": true, \"to\": 80}]",
               "[{\"from\": 100, \"to\": 80.0}]", "[{\"from\": \"100\", \"to\": 80}]",
               "[{\"from\": 1e2, \"to\": 80}]", "[{\"from\": 100, \"to\": 80}, 7]",
               "[{\"from\": NaN, \"to\": 80}]"]
# one valid move (100 -> 80), one step onto an own botlet (101 -> 100), one stay (120)
MIXED = ("[{\"from\": 100, \"to\": 80}, {\"from\": 101, \"to\": 100}, "
         "{\"from\": 120, \"to\": 120}]")


@pytest.fixture(params=WHERE)
def engine(request: pytest.FixtureRequest) -> Any:
    e = reference_engine(request.param)
    yield e
    e.close()


def _load(engine: Engine, phase: str = "p1", profile: str = "standard") -> Any:
    return engine.load_state(state(FIELD, phase=phase, profile=profile))


@pytest.mark.parametrize("phase", ["p1", "p2"])
def test_a_reply_in_a_bad_format_disqualifies(engine: Engine, phase: str) -> None:
    for text in NOT_JSON + WRONG_SHAPE:
        before = _load(engine, phase)
        action = engine.bot_output(text)
        assert action == {"type": "bad-format"}, text
        after, events = engine.apply(action)
        other = "p2" if phase == "p1" else "p1"
        assert after["phase"] == "over" and after["endReason"] == "disqualified", text
        assert after[phase]["disqualified"] and not after[other]["disqualified"]
        assert after["winner"] == other
        assert after["grid"] == before["grid"] and after["turnsElapsed"] == 10
        assert [(e["type"], e["rule"]) for e in events] == [
            ("disqualified", "BOTWARS-FORMAT-DQ"), ("game-ended", "BOTWARS-FORMAT-DQ")]


def test_a_well_formed_reply_is_taken_as_sent(engine: Engine) -> None:
    _load(engine)
    text = "[{\"from\": 100, \"to\": 80, \"note\": \"ignored\"}, {\"from\": -5, \"to\": 99999}]"
    assert engine.bot_output(text) == {"type": "moves", "moves": [
        {"from": 100, "to": 80}, {"from": -5, "to": 99999}]}
    assert engine.bot_output(" [ ]\n") == {"type": "moves", "moves": []}


def test_invalid_moves_lose_the_turn_under_the_default_reading(engine: Engine) -> None:
    assert CAT.profile().variant("BOTWARS-MOVE-INVALID") == "lose-turn"
    _load(engine)
    after, events = engine.apply(engine.bot_output(MIXED))
    assert after["phase"] == "p2" and after["pending"] == []
    assert not after["p1"]["disqualified"]
    (lost,) = events
    assert lost["type"] == "turn-lost" and lost["rule"] == "BOTWARS-MOVE-INVALID"
    assert [(b["index"], b["reason"], b["breaks"]) for b in lost["invalid"]] == [
        (1, "occupied", "BOTWARS-MOVE-OCCUPIED"), (2, "stay", "BOTWARS-MOVE-STAY")]


def test_invalid_moves_alone_are_dropped_under_the_lenient_reading(engine: Engine) -> None:
    lenient = CAT.profile("lenient")
    assert lenient.variant("BOTWARS-MOVE-INVALID") == "drop-move"
    assert lenient.variant("BOTWARS-MOVE-OCCUPIED") == "follow-own"
    _load(engine, profile="lenient")
    list_with_bad = "[{\"from\": 100, \"to\": 80}, {\"from\": 300, \"to\": 301}, " \
                    "{\"from\": 120, \"to\": 99}]"
    after, events = engine.apply(engine.bot_output(list_with_bad))
    assert after["pending"] == [{"from": 100, "to": 80}]
    assert [(e["type"], e["index"], e["reason"]) for e in events] == [
        ("move-invalid", 1, "not-own-botlet"), ("move-invalid", 2, "not-adjacent")]
    # p2's turn carries it out: 100 is empty and 80 holds p1's botlet afterwards
    done, _ = engine.apply({"type": "moves", "moves": []})
    assert done["grid"][100] == "." and done["grid"][80] == "1"


@pytest.mark.parametrize(("profile", "disqualified"), [("standard", True), ("lenient", False)])
def test_a_late_bot_per_reading(engine: Engine, profile: str, disqualified: bool) -> None:
    _load(engine, "p2", profile)
    after, _ = engine.apply({"type": "timeout"})
    assert after["p2"]["disqualified"] is disqualified
    assert (after["endReason"] == "disqualified") is disqualified
    if not disqualified:  # an empty turn: carried out, p2's botlets where they were
        assert after["turnsElapsed"] == 11 and after["grid"][300] == "2"


def test_the_lockstep_reports_a_crashing_referee_as_a_finding() -> None:
    engine = mutant_engine("crash_on_bad_json", "in-process")
    profile = CAT.profile()
    ls = Lockstep(BotWars(), engine, profile, oracles_for("botwars"))
    ls.start({"kind": "state", "state": state(FIELD, phase="p1")})
    ls.referee("[{\"from\": 100, \"to\": 80}]")  # JSON: the mutant copes
    with pytest.raises(Finding) as caught:
        ls.referee("not json")
    assert caught.value.rules == ["ENGINE-ALIVE"] and caught.value.kind == "crash"
    assert "JSONDecodeError" in caught.value.message
    assert ls.dead and not ls.live


@pytest.mark.parametrize(("where", "args"), [("in-process", ()), ("subprocess", ()),
                                             ("subprocess", ("--exit",))],
                         ids=["in-process", "subprocess", "subprocess-exits"])
def test_a_campaign_reports_an_engine_that_crashes_on_bad_json(where: str,
                                                               args: tuple[str, ...]) -> None:
    engine = mutant_engine("crash_on_bad_json", where, *args)
    try:
        result = run_campaign("botwars", engine, rounds=3, seed=0, max_findings=1)
        assert result.status == "violations"
        finding = result.findings[0]
        assert finding.rules in (["ENGINE-ALIVE"], ["BOTWARS-FORMAT-DQ"]), finding
        assert finding.kind == "crash"
        if args:
            assert "exited with code 70" in finding.message
        assert finding.trace is not None
        assert finding.trace["ops"][-1]["op"] == "bot_output"
        # the same engine object still serves (a dead process is restarted): the trace
        # shows the crash again on it, and is clean on the reference
        doc = trace_document(finding)
        assert replay(doc, engine).reproduced
    finally:
        engine.close()
    reference = reference_engine(where)
    try:
        assert replay(doc, reference).finding is None
    finally:
        reference.close()
