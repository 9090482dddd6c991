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

from gamecert.fuzz.campaign import CampaignResult, run_campaign
from gamecert.fuzz.engines import InProcessEngine, SubprocessEngine
from gamecert.fuzz.report import UNEXERCISED, rule_rows
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


def test_other_profiles_certify_clean() -> None:
    """Two players, the strictest river reading and the official order (end-turn discards,
    a shuffled lake, restart, no shared win): the plugin builds valid starts for each."""
    for pid in ("syncs-2025-base-2p", "syncs-2025-river-lookahead", "official-order",
                "syncs-2025-farms-2p", "syncs-2025-farms-river-joins", "syncs-2025-tower-2p",
                "syncs-2025-tower-placed"):
        engine = InProcessEngine(reference_session("carcassonne"))
        result = run_campaign("carcassonne", engine, profile_id=pid, rounds=2, seed=0)
        assert not result.departures and result.status in ("certified", "incomplete"), \
            (pid, [str(f) for f in result.findings])
        assert result.coverage.steps > 50
