"""The command line on Carcassonne: certify (clean, and a mutant with its report and a trace
that replays), prove (in-process and on a subprocess engine) and rules."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from examples.engines import engine_spec, module_of
from gamecert.fuzz.cli.main import main
from gamecert.spec import load_catalogue

RULES = load_catalogue("carcassonne").rule_ids
MUTANT = engine_spec("carcassonne", "meeples_kept")


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
    mutant = engine_spec("carcassonne", "tie_lowest_id")
    assert main(["prove", "carcassonne", "--engine", mutant]) == 1
    out = capsys.readouterr().out
    assert "symbolic proof: FAILED: counterexample" in out
    assert "tie positions from z3 (exact ties on one road): 8 played, 8 disagree" in out


def test_cli_prove_on_a_subprocess_engine_checks_placements_only(
        capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{sys.executable} -m {module_of('carcassonne', 'uturn_allowed')}"
    assert main(["prove", "carcassonne", "--engine-cmd", command]) == 1
    out = capsys.readouterr().out
    assert "symbolic proof: NOT RUN" in out
    assert "CARC-RIVER-NO-UTURN: " in out  # the z3 river model refutes its legal list


def test_cli_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "carcassonne", "--profile", "syncs-2025-river-alternate"]) == 0
    out = capsys.readouterr().out
    assert all(rule in out for rule in RULES)
    assert "variant: alternate" in out
