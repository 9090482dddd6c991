"""The compound mutants behind `bare:` (minimum capabilities, their own draws, no events):
each of their three departures is found as its own finding, charged to its own rule, with a
cause of its own; no finding is charged to a rule the mutant follows; every finding's trace
replays alone on a fresh engine to the same causes; and the compound that lays the lake
inside a turn (a departure on every game's river phase) is checked past it: land, scoring,
meeple and end rules are exercised after the first departure (`Coverage.past`)."""

from __future__ import annotations

import pytest

from examples.engines import engine_spec, load
from examples.engines.carcassonne import COMPOUNDS
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign

ROUNDS = 5  # seed 1 finds all three departures of each by round 5 (order_ties: its tie)
RULES = dict(COMPOUNDS)
_results: dict[str, CampaignResult] = {}


def _campaign(name: str) -> CampaignResult:
    if name not in _results:
        recipe = object_recipe("carcassonne", engine_spec("carcassonne", name, "bare"))
        _results[name] = run_campaign("carcassonne", recipe, rounds=ROUNDS, seed=1,
                                      budget=None)
    return _results[name]


def test_every_compound_names_its_three_rules() -> None:
    for name, rules in COMPOUNDS:
        module = load("carcassonne", name)
        assert rules == module.RULES and len(set(rules)) == 3


@pytest.mark.parametrize("name", list(RULES))
def test_each_departure_is_its_own_finding_under_its_own_rule(name: str) -> None:
    result = _campaign(name)
    primaries = [d.primary for d in result.departures]
    assert sorted(primaries) == sorted(RULES[name]), [d.message for d in result.departures]
    signatures = [d.signature for d in result.departures]
    assert len(set(signatures)) == 3  # each departure its own cause


@pytest.mark.parametrize("name", list(RULES))
def test_every_trace_replays_alone_on_a_fresh_engine(name: str) -> None:
    recipe = object_recipe("carcassonne", engine_spec("carcassonne", name, "bare"))
    for dep in _campaign(name).departures:
        engine = recipe.open()
        try:
            again = replay(trace_document(dep.finding), engine)
        finally:
            engine.close()
        assert again.finding is not None, dep.message
        assert again.finding.causes == dep.finding.causes


def test_the_rules_past_the_lake_laid_inside_a_turn_are_judged() -> None:
    """The lake is laid inside a turn in every game: every example departs in its river
    phase, and the land phase is still judged after it."""
    past = _campaign("compound_lake_banners").coverage.past
    for rule in ("CARC-PLACE-MATCH", "CARC-PLACE-ADJACENT", "CARC-CLAIM-UNCLAIMED",
                 "CARC-MEEPLE-SUPPLY", "CARC-MEEPLE-RETURN", "CARC-ROAD-COMPLETE",
                 "CARC-TOWN-COMPLETE", "CARC-SCORE-MAJORITY", "CARC-SCORE-INCOMPLETE",
                 "CARC-END-TILES", "CARC-WINNER", "CARC-HAND-SIZE"):
        assert past[rule] > 0, (rule, dict(past))


def test_farm_and_tower_rules_are_judged_past_the_lake() -> None:
    """The same compound under the tower stage (farms and The Tower on)."""
    recipe = object_recipe("carcassonne", engine_spec("carcassonne", "compound_lake_banners",
                                                         "bare"))
    result = run_campaign("carcassonne", recipe, profile_id="syncs-2025-tower", rounds=2,
                          seed=1, budget=None)
    past = result.coverage.past
    assert "CARC-RIVER-DRAW" in {d.primary for d in result.departures}
    for rule in ("CARC-FARM-CLAIM", "CARC-FARM-STAYS", "CARC-TOWER-TILES",
                 "CARC-TOWER-FLOORS", "CARC-TOWER-ACTION", "CARC-TOWER-MEEPLES"):
        assert past[rule] > 0, (rule, dict(past))
