"""Every Kingdomino mutant is caught with its rule id, in-process and as a subprocess, with a
trace of at most 25 operations that replays."""

from __future__ import annotations

from typing import Any

import pytest

from examples.engines import load
from examples.engines.kingdomino import MUTANTS
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.oracles.base import alternatives
from gamecert.reference_engine import reference_session
from tests.conftest import mutant_engine

ROUNDS = 20  # an upper bound: most are found in the first round or two


def test_at_least_twelve_mutants_one_rule_each() -> None:
    assert len(MUTANTS) >= 12
    rules = {load("kingdomino", n).RULE for n in MUTANTS}
    assert {"KD-PLACE-EXTENT", "KD-PLACE-CONNECT", "KD-DISCARD", "KD-SCORE-ZONES", "KD-ORDER",
            "KD-LAST-TURN-NO-PICK", "KD-KINGS", "KD-TIE-BREAK", "KD-TILES-IN-PLAY",
            "KD-PLACE-ROTATION"} <= rules


# every mutant in process; through the wire every eighth (the wire is one for all mutants:
# its own tests and the hostile gallery cover it), so the suite keeps to its time on 2 cores
CASES = [(n, "inproc") for n in MUTANTS] + [(n, "subprocess") for n in MUTANTS[::8]]


@pytest.mark.parametrize(("name", "mode"), CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_mutant_is_caught(name: str, mode: str, engines: list[Any]) -> None:
    module = load("kingdomino", name)
    engine = mutant_engine("kingdomino", name, mode)
    engines.append(engine)
    result = run_campaign("kingdomino", engine, profile_id=module.PROFILE, rounds=ROUNDS,
                          seed=0, max_findings=1)
    assert result.findings, f"{name} was not caught in {ROUNDS} rounds"
    finding = result.findings[0]
    # charged to the mutant's rule; a step one fact cannot pin on one rule names the others
    # it could be too (oracles.base.ambiguous), and the triage settles it on the right one
    assert result.departures[0].primary == module.RULE, finding.message
    named = {module.RULE}.union(*(alternatives(m) for _, m in finding.violations))
    assert module.RULE in finding.rules and set(finding.rules) <= named, finding.message
    assert finding.trace is not None and len(finding.trace["ops"]) <= 25
    doc = trace_document(finding)
    again = replay(doc, mutant_engine("kingdomino", name, "inproc"))
    assert again.reproduced, again.finding
    clean = replay(doc, InProcessEngine(reference_session("kingdomino")))
    assert clean.finding is None
