"""The reference certifies clean, and a clean run exercises every rule."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.step.lockstep import HARNESS_RULES
from gamecert.reference_engine import reference_session
from gamecert.spec import load_catalogue


def test_reference_in_process_certifies_clean_and_exercises_every_rule() -> None:
    result = run_campaign("flit", InProcessEngine(reference_session("flit")), rounds=12, seed=3)
    assert result.status == "certified", [str(f) for f in result.findings]
    applied = result.coverage.applied
    missing = [r for r in load_catalogue("flit").rule_ids if applied[r] == 0]
    assert missing == []
    assert applied["ENGINE-LOAD-STATE"] > 0 and applied["ENGINE-STATE-ROUNDTRIP"] > 0


def test_reference_over_the_wire_certifies_clean(engines: list[Any]) -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "flit"])
    engine.start()
    engines.append(engine)
    result = run_campaign("flit", engine, rounds=4, seed=5)
    # clean (four rounds over the wire may leave a rare rule, such as a tie, unexercised)
    assert not result.departures and result.status in ("certified", "incomplete"), \
        [str(f) for f in result.findings]
    assert result.coverage.steps > 50


@pytest.mark.parametrize("profile", sorted(load_catalogue("flit").profiles))
def test_every_profile_certifies_the_reference(profile: str) -> None:
    """Each profile's certificate for the reference, every applicable rule exercised: what
    `gamecert certify flit --profile P --engine reference --budget 30` gives (about 20
    rounds), in 6 rounds."""
    result = run_campaign("flit", InProcessEngine(reference_session("flit")),
                          profile_id=profile, rounds=6, seed=1)
    assert result.status == "certified", (profile, [str(f) for f in result.findings],
                                          result.unexercised)
    assert result.coverage.probes["FLIT-MOVE-VALID"] > 0


def test_same_seed_same_run() -> None:
    runs = [run_campaign("flit", InProcessEngine(reference_session("flit")), rounds=2, seed=9)
            for _ in range(2)]
    assert runs[0].coverage.applied == runs[1].coverage.applied
    assert runs[0].coverage.steps == runs[1].coverage.steps
    assert set(HARNESS_RULES) >= {"ENGINE-ALIVE", "ENGINE-AGREES"}
