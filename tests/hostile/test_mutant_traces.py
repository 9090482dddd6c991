"""Every trace of every Flit mutant's campaign replays, alone, on a fresh engine, to its own
rule id and kind; and the mutant runs by its file path, from any folder."""

from __future__ import annotations

import pytest

from examples.engines import load, path_of
from examples.engines.flit import MUTANTS
from gamecert.fuzz.engines.recipes import object_recipe
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import run_campaign


@pytest.mark.parametrize("name", MUTANTS)
def test_every_trace_replays_to_its_own_rule(name: str) -> None:
    rule = load("flit", name).RULE
    recipe = object_recipe("flit", f"{path_of('flit', name)}:ENGINE")
    result = run_campaign("flit", recipe, rounds=20, seed=0, max_findings=1)
    assert rule in {r for f in result.findings for r in f.rules}, name
    for finding in result.findings:
        assert finding.trace is not None
        assert finding.confirmation == "confirmed", (finding, finding.confirmation)
        again = replay(trace_document(finding), recipe.open())
        assert again.reproduced, (finding, again.finding)
        assert again.finding is not None and again.finding.rules == finding.rules
        assert again.finding.kind == finding.kind


def test_traces_of_an_engine_with_many_bugs_carry_what_their_replay_needs() -> None:
    """Later findings come from games that passed over earlier (muted) ones: each trace
    records the muted rules and resyncs, and replays to its own rule, not an earlier one."""
    recipe = object_recipe("flit", f"{path_of('hostile', 'many_bugs')}:ENGINE")
    result = run_campaign("flit", recipe, rounds=10, seed=0)
    found = sorted(r for f in result.findings for r in f.rules)
    assert len(found) >= 4, found
    muted_seen = False
    for finding in result.findings:
        assert finding.confirmation == "confirmed"
        doc = trace_document(finding)
        muted_seen = muted_seen or bool(doc.get("muted"))
        again = replay(doc, recipe.open())
        assert again.finding is not None and again.finding.rules == finding.rules
    assert muted_seen
