"""The compound mutants (examples/engines/botwars/compound_*.py, issues 26 and 27): engines
shaped like real ones (behind `bare:`: the minimum capabilities, their own draws, no
events), each with three departures at once, one on every game's first steps. A campaign
finds all three, each as its own finding charged to its own rule, charges nothing to a
rule the engine follows, keeps each departure its own cause, and every finding's trace
replays alone on a fresh engine."""

from __future__ import annotations

import pytest

from examples.engines import engine_spec, load
from examples.engines.botwars import COMPOUNDS
from gamecert.fuzz.engines.recipes import engine_recipe
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign

# rounds played (a seeded campaign: the same findings every run), found by trying seeds
ROUNDS = {"compound_turn_one": 2, "compound_first_botlets": 3}
_RESULTS: dict[str, tuple[CampaignResult, str]] = {}


def _campaign(name: str) -> tuple[CampaignResult, str]:
    if name not in _RESULTS:
        spec = engine_spec("botwars", name, "bare")
        module = load("botwars", name)
        result = run_campaign("botwars", engine_recipe("botwars", spec), rounds=ROUNDS[name],
                              seed=0, profile_id=module.PROFILE)
        _RESULTS[name] = (result, spec)
    return _RESULTS[name]


@pytest.mark.parametrize(("name", "rules"), COMPOUNDS, ids=[n for n, _ in COMPOUNDS])
def test_a_campaign_finds_each_departure_under_its_own_rule(
        name: str, rules: tuple[str, str, str]) -> None:
    module = load("botwars", name)
    assert rules == module.RULES
    result, _ = _campaign(name)
    assert "no_events" in result.capabilities and "load_state" not in result.capabilities
    found = {d.primary for d in result.departures}
    assert found == set(rules), [(d.primary, d.message) for d in result.departures]
    # nothing charged to a rule the engine follows, in a finding's primary or its others
    named = {r for d in result.departures for r in d.finding.rules}
    assert named <= set(rules), [(d.finding.rules, d.message) for d in result.departures]
    # each departure its own cause: no two findings share one
    keys = [d.key for d in result.departures]
    assert len(keys) == len(set(keys))
    # the examples went on past their first departure, to the later ones
    assert result.coverage.past_steps > 0


@pytest.mark.parametrize(("name", "rules"), COMPOUNDS, ids=[n for n, _ in COMPOUNDS])
def test_every_finding_replays_alone_on_a_fresh_engine(
        name: str, rules: tuple[str, str, str]) -> None:
    result, spec = _campaign(name)
    recipe = engine_recipe("botwars", spec)
    for dep in result.departures:
        engine = recipe.open()
        try:
            again = replay(trace_document(dep.finding), engine)
        finally:
            engine.close()
        assert again.finding is not None, (dep.primary, dep.message)
        assert again.finding.causes == dep.finding.causes, (again.finding, dep.finding)
