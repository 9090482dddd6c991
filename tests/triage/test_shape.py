"""The signature of a failure keeps its words and drops its particulars."""

from __future__ import annotations

from gamecert.fuzz.findings.triage import Triage, shape, signature
from gamecert.fuzz.step.lockstep import Finding
from gamecert.spec import load_catalogue


def test_shape_drops_numbers_literals_and_data() -> None:
    a = shape("move (3, 4) -> (5, 6) of bot 2 is 'bad' after {\"a\": [1, 2]}")
    b = shape("move (13, 24) -> (5, 7) of bot 4 is 'worse' after {\"b\": {}}")
    assert a == b == "move (#, #) -> (#, #) of bot # is '' after …"


def test_shape_keeps_apostrophes_in_words() -> None:
    assert shape("the engine's new game differs") == "the engine's new game differs"


def test_a_game_rule_is_one_cause_whatever_the_position() -> None:
    cat = load_catalogue("flit")
    one = Finding(["FLIT-MOVE-VALID"], "violation", "x", violations=[("FLIT-MOVE-VALID", "a 1")])
    two = Finding(["FLIT-MOVE-VALID"], "accepted-illegal", "y",
                  violations=[("FLIT-MOVE-VALID", "quite other words 7")])
    assert signature(one, cat) == signature(two, cat)


def test_harness_checks_split_by_what_failed() -> None:
    cat = load_catalogue("flit")
    crash = Finding(["ENGINE-ALIVE"], "crash", "RecursionError: deep")
    hang = Finding(["ENGINE-ALIVE"], "timeout", "no reply within 5 s")
    scores = Finding(["ENGINE-AGREES"], "divergence", "after {}: scores: reference [1], engine [2]")
    board = Finding(["ENGINE-AGREES"], "divergence", "after {}: board: reference '1', engine '2'")
    sigs = {signature(f, cat)[0] for f in (crash, hang, scores, board)}
    assert len(sigs) == 4


def test_primary_is_the_earliest_rule_and_the_message_names_one_violation() -> None:
    cat = load_catalogue("flit")
    f = Finding(["FLIT-END-CATCHUP", "FLIT-CONVERT"], "violation", "…",
                violations=[("FLIT-END-CATCHUP", "end missed"), ("FLIT-CONVERT", "c1"),
                            ("FLIT-CONVERT", "c2")])
    triage = Triage(cat)
    dep, new = triage.add(f)
    assert new and dep.primary == "FLIT-CONVERT"  # conversion comes before the end checks
    assert dep.also == ["FLIT-END-CATCHUP"]
    assert dep.message == "FLIT-CONVERT: c1 (and 2 more like it)"
    again, new = triage.add(Finding(["FLIT-CONVERT"], "violation", "…",
                                    violations=[("FLIT-CONVERT", "c9")]))
    assert not new and again is dep and dep.count == 2
    assert len(dep.id) == 8 and dep.id == triage.departures[0].id
