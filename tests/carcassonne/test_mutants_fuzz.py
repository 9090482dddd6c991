"""Every Carcassonne mutant is caught by a campaign, in-process and as a subprocess, with
exactly its own rule id and a short trace that replays on a fresh copy of it and is clean on
the reference.

Campaigns are seeded (seed 0), so each finds its mutant in the same round every time; ROUNDS
is an upper bound (a campaign stops at its first finding), not the usual cost. A mutant of a
later stage (farms) is fuzzed under the profile it names (PROFILE), and its trace replays
under that profile.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from examples.engines import load, module_of
from examples.engines.carcassonne import MUTANTS
from gamecert.fuzz.engines.engine import Engine, InProcessEngine
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.findings.trace import replay, trace_document
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign
from gamecert.oracles.carcassonne import ORACLES
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import Session

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 12
MAX_OPS = 30


def mutant(name: str) -> ModuleType:
    return load("carcassonne", name)


def in_process(name: str) -> Engine:
    return InProcessEngine(Session(mutant(name).ENGINE(), name))


def subprocess_engine(name: str) -> SubprocessEngine:
    return SubprocessEngine([sys.executable, "-m", module_of("carcassonne", name)],
                            cwd=str(ROOT))


def profile_of(name: str) -> str | None:
    """The profile a mutant's rule is played in (None: the default, stage 1)."""
    pid: str | None = getattr(mutant(name), "PROFILE", None)
    return pid


def check_caught(name: str, result: CampaignResult, fresh: Engine) -> None:
    m = mutant(name)
    assert result.unusable is None
    assert result.findings, f"{name} ({m.RULE}) not caught in {result.rounds} rounds"
    finding = result.findings[0]
    assert finding.rules == [m.RULE], (finding.rules, finding.message)
    assert finding.trace is not None and len(finding.trace["ops"]) <= MAX_OPS
    doc = trace_document(finding)
    again = replay(doc, fresh)
    assert again.reproduced and again.finding is not None
    assert again.finding.rules == [m.RULE]
    clean = replay(doc, InProcessEngine(reference_session("carcassonne")))
    assert clean.finding is None, clean.finding


def test_every_rule_with_an_oracle_has_a_mutant() -> None:
    rules = {mutant(name).RULE for name in MUTANTS}
    assert rules == {o.rule for o in ORACLES}
    assert len(MUTANTS) >= 9 and len(set(MUTANTS)) == len(MUTANTS)
    for name in MUTANTS:  # each is a subclass of the reference that serves itself
        m = mutant(name)
        assert m.ENGINE.__mro__[1].__name__ == "Carcassonne"
        assert f'name="carcassonne-mutant-{name}"' in Path(m.__file__ or "").read_text()


@pytest.mark.parametrize("name", MUTANTS)
def test_mutant_caught_in_process(name: str) -> None:
    result = run_campaign("carcassonne", in_process(name), profile_id=profile_of(name),
                          rounds=ROUNDS, seed=0, max_findings=1)
    check_caught(name, result, in_process(name))


# through the wire every eighth mutant (the wire is one for all: its own tests and the
# hostile gallery cover it); every mutant in process above
@pytest.mark.parametrize("name", MUTANTS[::8])
def test_mutant_caught_as_subprocess(name: str) -> None:
    engine, fresh = subprocess_engine(name), subprocess_engine(name)
    try:
        result = run_campaign("carcassonne", engine, profile_id=profile_of(name), rounds=ROUNDS,
                              seed=0, max_findings=1)
        check_caught(name, result, fresh)
    finally:
        engine.close()
        fresh.close()
