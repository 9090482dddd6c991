"""The reference certifies clean through `run_campaign`, in-process and over the wire
protocol as a subprocess, and the fuzzer exercises every rule of the catalogue (and the
harness's own checks) on the way."""

from __future__ import annotations

import pytest

from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.step.lockstep import HARNESS_RULES

from .fuzzing import CAT, WHERE, reference_engine

# enough rounds that every rule applies with seed 0 (and with seeds 1 to 5 too, by at least
# twice: contested energy and time-outs are the rarest)
ROUNDS = {"in-process": 12, "subprocess": 8}


@pytest.mark.parametrize("where", WHERE)
def test_reference_certifies_clean(where: str) -> None:
    engine = reference_engine(where)
    try:
        result = run_campaign("botwars", engine, rounds=ROUNDS[where], seed=0)
    finally:
        engine.close()
    assert result.unusable is None
    assert result.findings == [], [str(f) for f in result.findings]
    assert result.status == "certified"
    assert result.rounds == ROUNDS[where]
    assert result.coverage.steps >= 20 * ROUNDS[where]  # games were played, not just loaded
    if where == "in-process":
        # the clean run tried every rule: an oracle that never applies proves nothing
        never = [rid for rid in [*CAT.rule_ids, *HARNESS_RULES]
                 if rid not in ("ENGINE-ALIVE", "ENGINE-AGREES")
                 and result.coverage.applied[rid] == 0]
        assert never == [], f"never exercised: {never}"


@pytest.mark.parametrize("profile", sorted(CAT.profiles))
def test_reference_certifies_clean_under_every_profile(profile: str) -> None:
    """Every profile certifies the reference, every rule it applies exercised (issue 26: the
    `original` profile ended INCOMPLETE, BOTWARS-BATTLE, -WINNER, -RAZE... never met)."""
    engine = reference_engine("in-process")
    result = run_campaign("botwars", engine, profile_id=profile, rounds=4, seed=1)
    assert result.findings == [], [str(f) for f in result.findings]
    assert result.profile.id == profile
    assert result.status == "certified" and result.unexercised == []
    # the readings that differ from the default are played, not just loaded
    assert result.coverage.applied["BOTWARS-MOVE-INVALID"] > 0
    assert result.coverage.applied["BOTWARS-BATTLE"] > 0
