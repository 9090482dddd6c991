"""The compound mutants (examples/engines/flit/compound_*.py), run as real engines are run:
behind `bare:` (minimum capabilities, their own seeded draws, no events). A campaign finds
all three departures of each, each its own finding naming its own rule and its own cause,
charges nothing to a rule the engine follows, and every finding's trace replays alone on a
fresh engine to the same finding."""

from __future__ import annotations

import pytest

from examples.engines import engine_spec, load
from examples.engines.flit import COMPOUNDS
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import run_campaign

# rounds and seed of each campaign: enough rounds for all three (a round that finds a new
# departure ends there; the next round passes over what is known)
# (seed 0 of compound_last_placer_first meets its third departure in round 3; seeds 1 and 2
# in round 2)
PLAYED = {"compound_dealt_together": (4, 0), "compound_last_placer_first": (3, 0)}


@pytest.mark.parametrize("name", [name for name, _ in COMPOUNDS])
def test_a_campaign_finds_each_departure_of_a_compound_engine(name: str) -> None:
    module = load("flit", name)
    rules = dict(COMPOUNDS)[name]
    assert tuple(module.RULES) == rules
    recipe = object_recipe("flit", engine_spec("flit", name, "bare"))
    rounds, seed = PLAYED[name]
    result = run_campaign("flit", recipe, rounds=rounds, seed=seed)
    assert result.capabilities == frozenset({"no_events"})
    charged = [d.primary for d in result.departures]
    # each departure its own finding under its own rule; none under a rule it follows
    assert sorted(charged) == sorted(rules), [d.finding.message for d in result.departures]
    # each departure its own cause (a cause goes by every name it has: a model's and its
    # oracle's own), no name shared between two
    causes = [d.finding.causes for d in result.departures]
    assert all(a.isdisjoint(b) for i, a in enumerate(causes) for b in causes[i + 1:]), causes
    assert len({d.signature for d in result.departures}) == 3
    for dep in result.departures:
        engine = recipe.open()
        try:
            again = replay(trace_document(dep.finding), engine)
        finally:
            engine.close()
        assert again.reproduced, (dep.primary, again.finding)
        assert again.finding is not None and again.finding.causes == dep.finding.causes
