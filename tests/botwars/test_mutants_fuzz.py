"""The fuzzer finds every example mutant end to end, in-process and over the wire: a
campaign's first finding names exactly the mutant's rule, its minimized trace is a few turns
long, replaying it on a fresh copy of the mutant shows the finding again, and the same trace
is clean on the reference."""

from __future__ import annotations

import pytest

from examples.engines.botwars import MUTANTS
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.schemas import first_error

from .fuzzing import WHERE, mutant, mutant_engine, reference_engine, turns_in

# an upper bound: a campaign stops at its first finding (max_findings=1), after 1 to 3
# rounds for every mutant with seed 0
ROUNDS = 12


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("name", MUTANTS)
def test_campaign_finds_the_mutant_and_its_trace_replays(name: str, where: str) -> None:
    rule = mutant(name).RULE
    engine = mutant_engine(name, where)
    try:
        result = run_campaign("botwars", engine, rounds=ROUNDS, seed=0, max_findings=1)
    finally:
        engine.close()
    assert result.status == "violations", f"{name} not found in {ROUNDS} rounds"
    finding = result.findings[0]
    assert finding.rules == [rule], finding
    assert finding.trace is not None
    assert turns_in(finding.trace) <= 10
    doc = trace_document(finding)
    assert first_error("trace", doc) is None

    again = mutant_engine(name, where)
    try:
        shown = replay(doc, again)
    finally:
        again.close()
    assert shown.reproduced, shown
    assert shown.finding is not None and rule in shown.finding.rules

    reference = reference_engine(where)
    try:
        clean = replay(doc, reference)
    finally:
        reference.close()
    assert clean.finding is None, clean.finding
    assert clean.ops_run == len(doc["ops"])
