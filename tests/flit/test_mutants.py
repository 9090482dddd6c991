"""Every Flit mutant is caught with its rule id, in-process and as a subprocess, with a
short trace that replays."""

from __future__ import annotations

from typing import Any

import pytest

from examples.engines import load
from examples.engines.flit import MUTANTS
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.reference_engine import reference_session
from tests.conftest import mutant_engine

ROUNDS = 20  # an upper bound: most are found in the first round or two


# every mutant in process; through the wire every eighth (the wire is one for all mutants:
# its own tests and the hostile gallery cover it), so the suite keeps to its time on 2 cores
CASES = [(n, "inproc") for n in MUTANTS] + [(n, "subprocess") for n in MUTANTS[::8]]


@pytest.mark.parametrize(("name", "mode"), CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_mutant_is_caught(name: str, mode: str, engines: list[Any]) -> None:
    rule = load("flit", name).RULE
    engine = mutant_engine("flit", name, mode)
    engines.append(engine)
    result = run_campaign("flit", engine, rounds=ROUNDS, seed=0, max_findings=1)
    assert result.findings, f"{name} was not caught in {ROUNDS} rounds"
    finding = result.findings[0]
    assert finding.rules == [rule], finding.message
    # short: a Flit turn is two operations (the move, then the neutral step)
    assert finding.trace is not None and len(finding.trace["ops"]) <= 25
    doc = trace_document(finding)
    again = replay(doc, mutant_engine("flit", name, "inproc"))
    assert again.reproduced, again.finding
    clean = replay(doc, InProcessEngine(reference_session("flit")))
    assert clean.finding is None
