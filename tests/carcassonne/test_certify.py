"""Certification end to end: the reference certifies clean in-process, as a subprocess and
under the other profiles, with every rule exercised.

Every rule is exercised except CARC-PROTO-LIMITS (reply and game time limits, bans): those are
about a bot's timing and life, which only the bot harness sees; an engine's canonical JSON and
the wire protocol carry no clock, so no engine oracle can judge them (HARNESS_RULES). The
farms stage's rules (CARC-FARM-*) apply only under a farms or tower profile, The Tower's
(CARC-TOWER-*) only under a tower profile.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.reports.certificate import UNEXERCISED, rule_rows
from gamecert.fuzz.search.campaign import CampaignResult, run_campaign
from gamecert.oracles.carcassonne import HARNESS_RULES
from gamecert.reference_engine import reference_session
from gamecert.spec import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
RULES = load_catalogue("carcassonne").rule_ids
FARM_RULES = [r for r in RULES if r.startswith("CARC-FARM-")]
TOWER_RULES = [r for r in RULES if r.startswith("CARC-TOWER-")]
ROUNDS = 6  # seed 0 reaches every rule by round 5 (an accepted bot reply is the last)
FARM_ROUNDS = 8  # under syncs-2025-farms, a completed monastery is the last, by round 8


def check_clean_and_covered(result: CampaignResult,
                            other_stages: list[str] = FARM_RULES + TOWER_RULES,
                            rounds: int = ROUNDS) -> None:
    assert result.status == "certified", [str(f) for f in result.findings]
    assert result.rounds == rounds and result.coverage.examples >= rounds * 15
    never = [r for r in RULES if not result.coverage.applied[r]]
    assert never == [r for r in RULES if r in HARNESS_RULES or r in other_stages]
    assert all(r.verdict != UNEXERCISED for r in rule_rows(result)
               if not r.harness and r.rule not in never)


def test_reference_certifies_clean_in_process() -> None:
    engine = InProcessEngine(reference_session("carcassonne"))
    check_clean_and_covered(run_campaign("carcassonne", engine, rounds=ROUNDS, seed=0))


def test_reference_certifies_clean_as_subprocess() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "carcassonne"],
                              cwd=str(ROOT))
    try:
        result = run_campaign("carcassonne", engine, rounds=ROUNDS, seed=0)
    finally:
        engine.close()
    check_clean_and_covered(result)


def test_farms_profile_certifies_clean_with_every_farm_rule_exercised() -> None:
    engine = InProcessEngine(reference_session("carcassonne"))
    result = run_campaign("carcassonne", engine, profile_id="syncs-2025-farms",
                          rounds=FARM_ROUNDS, seed=0)
    check_clean_and_covered(result, other_stages=TOWER_RULES, rounds=FARM_ROUNDS)
    assert all(result.coverage.applied[r] >= 5 for r in FARM_RULES)


def test_tower_profile_certifies_clean_with_every_rule_exercised() -> None:
    engine = InProcessEngine(reference_session("carcassonne"))
    result = run_campaign("carcassonne", engine, profile_id="syncs-2025-tower",
                          rounds=FARM_ROUNDS, seed=0)
    check_clean_and_covered(result, other_stages=[], rounds=FARM_ROUNDS)
    assert all(result.coverage.applied[r] >= 5 for r in FARM_RULES + TOWER_RULES)


def test_farms_profile_certifies_clean_as_subprocess() -> None:
    engine = SubprocessEngine([sys.executable, "-m", "gamecert", "serve", "carcassonne"],
                              cwd=str(ROOT))
    try:
        result = run_campaign("carcassonne", engine, profile_id="syncs-2025-farms", rounds=3,
                              seed=0)
    finally:
        engine.close()
    assert result.status == "certified", [str(f) for f in result.findings]
    assert all(result.coverage.applied[r] for r in FARM_RULES)


# Every other profile (`gamecert rules carcassonne` lists them), with the round by which
# seed 0 has exercised every rule that applies there (the last to come, in brackets):
# two players, five, the other river readings, the official order (end-turn discards, a
# shuffled lake, restart, no shared win), the farms and tower stages' variants, the classic
# game order.
PROFILE_ROUNDS = {
    "syncs-2025-base-2p": 3,  # (CARC-PROTO-REPLY)
    "syncs-2025-base-5p": 2,
    "syncs-2025-river-alternate": 3,
    "syncs-2025-river-lookahead": 2,  # (CARC-MONASTERY-COMPLETE, a crafted monastery)
    "official-order": 4,  # (CARC-RIVER-NO-UTURN)
    "syncs-2025-farms-2p": 6,  # (CARC-FARM-SCORE, the final scoring; CARC-RIVER-NO-UTURN)
    "syncs-2025-farms-river-joins": 4,  # (CARC-FARM-MAJORITY)
    "syncs-2025-tower-2p": 4,  # (CARC-RIVER-NO-UTURN)
    "syncs-2025-tower-placed": 4,  # (CARC-TOWER-RANSOM; CARC-TOWER-EXCHANGE on request)
    "classic-farms-2p": 3,  # (CARC-MONASTERY-COMPLETE)
}


def test_every_profile_is_tested() -> None:
    tested = {"syncs-2025-base", "syncs-2025-farms", "syncs-2025-tower", *PROFILE_ROUNDS}
    assert tested == set(load_catalogue("carcassonne").profiles)


@pytest.mark.parametrize("pid", list(PROFILE_ROUNDS))
def test_other_profiles_certify_clean_with_every_rule_exercised(pid: str) -> None:
    """The plugin builds valid starts for each profile, and its crafted starts, play and bot
    replies reach every rule that applies there: CERTIFIED, as `gamecert certify
    carcassonne --profile P --engine reference` is."""
    engine = InProcessEngine(reference_session("carcassonne"))
    rounds = PROFILE_ROUNDS[pid]
    result = run_campaign("carcassonne", engine, profile_id=pid, rounds=rounds, seed=0)
    assert result.status == "certified", (pid, [str(f) for f in result.findings],
                                          result.unexercised)
    assert not result.departures and result.rounds == rounds
    assert all(r.verdict != UNEXERCISED for r in rule_rows(result) if not r.harness)
