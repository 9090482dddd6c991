"""Certification end to end: the reference certifies clean in-process and as a subprocess,
with every rule exercised, and the command line certifies, proves, lists rules and replays.

Every rule is exercised except CARC-PROTO-LIMITS (reply and game time limits, bans): those are
about a bot's timing and life, which only the bot harness sees; an engine's canonical JSON and
the wire protocol carry no clock, so no engine oracle can judge them (HARNESS_RULES).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gamecert.fuzz.campaign import CampaignResult, run_campaign
from gamecert.fuzz.cli import main
from gamecert.fuzz.engines import InProcessEngine, SubprocessEngine
from gamecert.fuzz.report import UNEXERCISED, rule_rows
from gamecert.oracles.carcassonne import HARNESS_RULES
from gamecert.reference_engine import reference_session
from gamecert.spec import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
RULES = load_catalogue("carcassonne").rule_ids
ROUNDS = 6  # seed 0 reaches every rule by round 5 (an accepted bot reply is the last)
MUTANT = "examples.engines.carcassonne.meeples_kept:ENGINE"


def check_clean_and_covered(result: CampaignResult) -> None:
    assert result.status == "certified", [str(f) for f in result.findings]
    assert result.rounds == ROUNDS and result.coverage.examples >= ROUNDS * 15
    never = [r for r in RULES if not result.coverage.applied[r]]
    assert never == list(HARNESS_RULES)
    assert all(r.verdict != UNEXERCISED for r in rule_rows(result)
               if not r.harness and r.rule not in HARNESS_RULES)


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


def test_other_profiles_certify_clean() -> None:
    """Two players, the strictest river reading and the official order (end-turn discards,
    a shuffled lake, restart, no shared win): the plugin builds valid starts for each."""
    for pid in ("syncs-2025-base-2p", "syncs-2025-river-lookahead", "official-order"):
        engine = InProcessEngine(reference_session("carcassonne"))
        result = run_campaign("carcassonne", engine, profile_id=pid, rounds=2, seed=0)
        assert not result.departures and result.status in ("certified", "incomplete"), \
            (pid, [str(f) for f in result.findings])
        assert result.coverage.steps > 50


def test_cli_certifies_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "carcassonne", "--engine", "reference", "--rounds", "2",
                 "-q"]) in (0, 4)  # clean; two rounds may leave a rare rule unexercised
    out = capsys.readouterr().out
    assert "CARC-RIVER-NO-UTURN" in out and "CARC-SCORE-MAJORITY" in out
    assert "FAIL" not in out


def test_cli_certify_flags_a_mutant_and_replays_its_trace(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report"
    assert main(["certify", "carcassonne", "--engine", MUTANT, "--rounds", "2", "-q",
                 "--report", str(report)]) == 1
    out = capsys.readouterr().out
    assert "finding 1 [CARC-MEEPLE-RETURN]" in out
    doc = json.loads((report / "report.json").read_text())
    assert doc["findings"] and (report / "report.xml").exists()
    traces = sorted((report / "traces").glob("*.json"))
    assert traces and "carc-meeple-return" in traces[0].name
    trace = str(traces[0])
    assert main(["replay", trace, "--engine", MUTANT]) == 1
    assert "reproduced: [CARC-MEEPLE-RETURN]" in capsys.readouterr().out
    assert main(["replay", trace, "--engine", "reference"]) == 0
    assert ": clean:" in capsys.readouterr().out
    assert main(["replay", trace]) == 0  # the bundled reference as a subprocess
    assert ": clean:" in capsys.readouterr().out


def test_cli_prove(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "carcassonne", "--engine", "reference"]) == 0
    out = capsys.readouterr().out
    assert "CARC-SCORE-MAJORITY symbolic proof: PROVED" in out
    assert "0 disagree" in out and "disagree with the rule" in out
    mutant = "examples.engines.carcassonne.tie_lowest_id:ENGINE"
    assert main(["prove", "carcassonne", "--engine", mutant]) == 1
    out = capsys.readouterr().out
    assert "symbolic proof: FAILED: counterexample" in out
    assert "tie positions from z3 (exact ties on one road): 8 played, 8 disagree" in out


def test_cli_prove_on_a_subprocess_engine_checks_placements_only(
        capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{sys.executable} -m examples.engines.carcassonne.uturn_allowed"
    assert main(["prove", "carcassonne", "--engine-cmd", command]) == 1
    out = capsys.readouterr().out
    assert "symbolic proof: NOT RUN" in out
    assert "CARC-RIVER-NO-UTURN: " in out  # the z3 river model refutes its legal list


def test_cli_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "carcassonne", "--profile", "syncs-2025-river-alternate"]) == 0
    out = capsys.readouterr().out
    assert all(rule in out for rule in RULES)
    assert "variant: alternate" in out
