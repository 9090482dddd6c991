"""Verdicts that blame the right rule (issue 16, part 2): the game's phase order decides a
step's primary cause, ambiguous steps are settled by the engine's own listing or by another
finding, and the three cascade patterns (a game stopped early, another start position,
another adjacency) each give exactly one violated rule."""

from __future__ import annotations

import json
from typing import Any

import pytest

from examples.engines import load
from examples.engines.botwars import CASCADES
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.findings.triage import (
    Triage,
    disambiguated,
    primary_rule,
    settle_by_probes,
)
from gamecert.fuzz.reports.certificate import VIOLATED, rule_rows
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.step.lockstep import Finding
from gamecert.oracles.base import alternatives, ambiguous
from gamecert.reference_engine.contract import Session
from gamecert.spec import CatalogueError, load_catalogue, parse_catalogue

ROUNDS = 6


@pytest.mark.parametrize("name", CASCADES)
def test_a_cascade_pattern_gives_exactly_one_violated_rule(name: str) -> None:
    module = load("botwars", name)
    engine = InProcessEngine(Session(module.ENGINE(), name=name))
    result = run_campaign("botwars", engine, rounds=ROUNDS, seed=0,
                          profile_id=getattr(module, "PROFILE", None))
    violated = [r.rule for r in rule_rows(result) if r.verdict == VIOLATED]
    assert violated == [module.RULE], [d.message for d in result.departures]
    assert [d.primary for d in result.departures] == [module.RULE]


def test_the_phase_order_names_the_primary_cause() -> None:
    catalogue = load_catalogue("botwars")
    late = Finding(["BOTWARS-BATTLE", "BOTWARS-SPAWN", "BOTWARS-TIME-LIMIT"], "violation", "")
    assert primary_rule(late, catalogue) == "BOTWARS-TIME-LIMIT"  # the reply is read first
    flit = load_catalogue("flit")
    assert primary_rule(Finding(["FLIT-END-ALLPASS", "FLIT-END-TIMING"], "violation", ""),
                        flit) == "FLIT-END-TIMING"  # when the conditions are checked comes first
    kd = load_catalogue("kingdomino")  # no phase order: the rules' order
    assert kd.phase_order == kd.rule_ids


def _doc(game: str) -> dict[str, Any]:
    path = load_catalogue(game).path
    with open(path, encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


def test_a_phase_order_naming_no_rule_is_refused_and_a_short_one_completed() -> None:
    doc = _doc("flit")
    doc["phase_order"] = ["FLIT-END-TIMING", "FLIT-NO-SUCH-RULE"]
    with pytest.raises(CatalogueError, match="phase_order: no rule 'FLIT-NO-SUCH-RULE'"):
        parse_catalogue(json.dumps(doc), "flit.json")
    doc["phase_order"] = ["FLIT-END-TIMING"]
    catalogue = parse_catalogue(json.dumps(doc), "flit.json")
    assert catalogue.phase_order[0] == "FLIT-END-TIMING"
    assert sorted(catalogue.phase_order) == sorted(catalogue.rule_ids)


def _finding(rules: list[str], message: str = "m", op_index: int = 0) -> Finding:
    return Finding(rules, "violation", message, op_index, {"ops": [{"op": "apply"}]},
                   violations=[(r, message) for r in rules])


AMBIGUOUS = ambiguous(("KD-PLACE-EXTENT", "KD-PLACE-CONNECT"), "tile 3 fits nowhere")


def test_an_ambiguous_step_is_charged_to_the_rule_seen_broken_alone() -> None:
    triage = Triage(load_catalogue("kingdomino"))
    first, new = triage.add(_finding(["KD-PLACE-CONNECT", "KD-PLACE-EXTENT"], AMBIGUOUS))
    assert new and first.primary == "KD-PLACE-EXTENT"  # the phase order's first, for now
    assert first.alternatives == {"KD-PLACE-EXTENT", "KD-PLACE-CONNECT"}
    plain, new = triage.add(_finding(["KD-PLACE-CONNECT"]))
    assert new and [d.primary for d in triage.departures] == ["KD-PLACE-CONNECT"]
    assert plain.count == 2 and "KD-PLACE-EXTENT" in plain.also
    again, new = triage.add(_finding(["KD-PLACE-CONNECT", "KD-PLACE-EXTENT"], AMBIGUOUS))
    assert not new and again is plain and plain.count == 3


def test_two_plain_causes_stay_two() -> None:
    triage = Triage(load_catalogue("kingdomino"))
    triage.add(_finding(["KD-PLACE-EXTENT"]))
    triage.add(_finding(["KD-PLACE-CONNECT"]))
    assert [d.primary for d in triage.departures] == ["KD-PLACE-EXTENT", "KD-PLACE-CONNECT"]


def test_the_engines_listing_settles_an_ambiguous_step() -> None:
    triage = Triage(load_catalogue("kingdomino"))
    dep, _ = triage.add(_finding(["KD-PLACE-CONNECT", "KD-PLACE-EXTENT"], AMBIGUOUS, 0))
    asked: list[Any] = []

    def probe(doc: dict[str, Any]) -> Finding:
        asked.append(doc["ops"])
        return Finding(["KD-PLACE-CONNECT", "KD-PLACE-EXTENT"], "violation", "", violations=[
            ("KD-PLACE-EXTENT", AMBIGUOUS), ("KD-PLACE-CONNECT", AMBIGUOUS),
            ("KD-PLACE-CONNECT", "PUT [1, 5, 3] breaks KD-PLACE-CONNECT but was accepted")])

    shown = disambiguated(dep, probe)
    assert shown is not None and shown[0] == "KD-PLACE-CONNECT"
    assert asked == [[{"op": "legal"}]]  # the position before the failing step, listed
    moved = triage.reattribute(dep, "KD-PLACE-CONNECT")
    assert moved.primary == "KD-PLACE-CONNECT" and not moved.alternatives
    assert disambiguated(moved, probe) is None  # nothing left to settle


def test_the_listing_that_settles_a_step_is_its_finding() -> None:
    triage = Triage(load_catalogue("kingdomino"))
    dep, _ = triage.add(_finding(["KD-PLACE-CONNECT", "KD-PLACE-EXTENT"], AMBIGUOUS, 0))
    listing = Finding(["KD-PLACE-CONNECT"], "violation", "", violations=[
        ("KD-PLACE-CONNECT", "PUT [1, 5, 3] breaks KD-PLACE-CONNECT but was accepted")])
    settled = disambiguated(dep, lambda doc: listing)
    assert settled is not None and settled == ("KD-PLACE-CONNECT", listing)


def test_one_rule_probes_settle_a_step_a_game_played_on_cannot() -> None:
    """An overlap accepted, or a rotation misread: only an illegal action shows the first,
    and legal moves never are. The one-rule probes of each rule, offered where the step
    was met, are: the first one the engine accepts plainly names the rule."""
    triage = Triage(load_catalogue("kingdomino"))
    dep, _ = triage.add(_finding(["KD-PLACE-CONNECT", "KD-PLACE-EXTENT"], AMBIGUOUS, 1))
    dep.finding.trace = {"ops": [{"op": "apply"}, {"op": "probe"}]}
    offered: list[Any] = []

    def probes_at(doc: dict[str, Any]) -> list[tuple[str, Any]]:
        assert doc["ops"] == [{"op": "apply"}]  # where the ambiguous step was met
        return [("KD-GRID", "g"), ("KD-PLACE-EXTENT", "e"), ("KD-PLACE-CONNECT", "c")]

    def probe(doc: dict[str, Any]) -> Finding | None:
        action = doc["ops"][-1]["action"]
        offered.append(action)
        if action == "c":  # refused by the engine: no finding
            return None
        return Finding(["KD-PLACE-EXTENT"], "accepted-illegal", "", violations=[
            ("KD-PLACE-EXTENT", "PUT [0, 0, 0] breaks KD-PLACE-EXTENT but was accepted")])

    settled = settle_by_probes(dep, probes_at, probe)
    assert settled is not None and settled[0] == "KD-PLACE-EXTENT"
    assert offered == ["e"]  # only the departure's own rules' probes, until one shows
    assert settle_by_probes(dep, probes_at, lambda doc: None) is None


def test_an_ambiguous_message_names_its_rules() -> None:
    assert alternatives(AMBIGUOUS) == {"KD-PLACE-EXTENT", "KD-PLACE-CONNECT"}
    assert alternatives("PUT [1, 5, 3] breaks KD-PLACE-CONNECT but was accepted") == set()


def test_two_departures_under_one_rule_give_two_findings() -> None:
    """Issue 16, part 4: the campaign dedupes by cause, not by rule, and keeps hunting under
    a rule after its first finding."""
    module = load("flit", "two_winner_causes")

    engine = InProcessEngine(Session(module.ENGINE(), name="two-winner-causes"))
    result = run_campaign("flit", engine, rounds=8, seed=0)
    assert [d.primary for d in result.departures] == [module.RULE, module.RULE]
    assert sorted(d.signature for d in result.departures) == [
        f"{module.RULE}|{c}" for c in module.CAUSES]
    assert len({d.id for d in result.departures}) == 2
    # each finding's trace passes over what was already known, and replays on its own
    from gamecert.fuzz.findings.trace import replay, trace_document
    for dep in result.departures:
        again = replay(trace_document(dep.finding),
                       InProcessEngine(Session(module.ENGINE(), name="again")))
        assert again.finding is not None and again.finding.causes == dep.finding.causes


def test_a_cause_named_by_an_oracle_is_muted_alone() -> None:
    from gamecert.fuzz.step.lockstep import cause_keys
    from gamecert.oracles.base import cause, cause_of

    v = cause("counts", "result counts [1, 2] differ")
    assert cause_of(v) == "counts" and cause_of("result counts differ") is None
    assert cause_keys(["FLIT-WINNER"], [("FLIT-WINNER", v)]) == {"FLIT-WINNER|counts"}
    assert cause_keys(["FLIT-WINNER"], [("FLIT-WINNER", "x")]) == {"FLIT-WINNER"}
    assert cause_keys(["ENGINE-ALIVE"], []) == {"ENGINE-ALIVE"}
