"""Every public one-rule mutant behind `bare:` (minimum capabilities, its own seeded draws,
no events: as real engines are run) is blamed on its own rule only. A mutant not caught in
the short campaign is one whose rule the certificate names as needing a capability (not
checkable, or checked in part with the rest needing it), or whose oracle reads events
only. The table (mutant, rule expected, rules blamed) is printed (-s)."""

from __future__ import annotations

import pytest

from examples.engines import engine_spec, load
from examples.engines.flit import MUTANTS
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.search import campaign
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign
from gamecert.oracles import oracles_for

ROUNDS = 2
EXAMPLES = 10  # per round: half the campaign default, to keep the file's run time modest
TABLE: list[tuple[str, str, str, str]] = []


def _needs_events(rule: str) -> bool:
    """The rule's oracle judges only through the events (no state-only form): nothing of
    it is checkable on an engine that sends none."""
    return any(o.rule == rule and o.reads_events and o.bare is None and not (
        o.state or o.judge or o.referee) for o in oracles_for("flit"))


def _campaign(name: str, rule: str) -> CampaignResult:
    """Rounds until the mutant's rule is found (no round starts after: the same verdict,
    sooner), at most ROUNDS."""
    def stop_once_caught(result: CampaignResult) -> None:
        if rule in {d.primary for d in result.departures}:
            campaign.STOP.set()

    campaign.STOP.clear()
    try:
        return run_campaign("flit", object_recipe(
            "flit", engine_spec("flit", name, "bare")), rounds=ROUNDS, seed=0,
            examples_per_round=EXAMPLES, on_round=stop_once_caught)
    finally:
        campaign.STOP.clear()


@pytest.mark.parametrize("name", MUTANTS)
def test_a_mutant_behind_bare_is_blamed_on_its_own_rule_only(name: str) -> None:
    rule = load("flit", name).RULE
    result = _campaign(name, rule)
    blamed = sorted({d.primary for d in result.departures})
    if rule in blamed:
        verdict = "caught"
    elif _needs_events(rule):
        verdict = "needs events (its oracle reads them only)"
    elif rule in result.not_checkable:
        verdict = f"not checkable (needs {result.not_checkable[rule]})"
    elif rule in result.in_part:
        verdict = f"checked in part (the rest needs {result.in_part[rule]})"
    else:
        verdict = "MISSED"
    TABLE.append((name, rule, ", ".join(blamed) or "-", verdict))
    print(f"\n{name:22} {rule:22} blamed: {', '.join(blamed) or '-':22} {verdict}")
    assert blamed in ([], [rule]), [d.finding.message for d in result.departures]
    assert verdict != "MISSED"
