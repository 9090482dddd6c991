"""The command line for Kingdomino: rules, certify with a report, replay, prove."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.main import main


def test_rules_lists_every_rule_with_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "kingdomino", "-v", "--profile", "wood"]) == 0
    out = capsys.readouterr().out
    assert "KD-PLACE-EXTENT" in out and "variant: discard" in out and "open point" in out


def test_certify_mutant_report_and_replay(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report"
    mutant = engine_spec("kingdomino", "seat_order_every_turn")
    assert main(["certify", "kingdomino", "--engine", mutant, "--rounds", "5", "--quiet",
                 "--report", str(report)]) == 1
    doc = json.loads((report / "report.json").read_text())
    verdicts = {r["id"]: r["verdict"] for r in doc["rules"]}
    assert verdicts["KD-ORDER"] == "violated"
    trace = report / doc["findings"][0]["trace"]
    capsys.readouterr()
    assert main(["replay", str(trace), "--engine", mutant]) == 1
    assert "reproduced" in capsys.readouterr().out
    assert main(["replay", str(trace), "--engine", "reference"]) == 0


def test_certify_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "kingdomino", "--engine", "reference", "--rounds", "2",
                 "--quiet"]) == 0
    assert "CERTIFIED" in capsys.readouterr().out


def test_prove_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "kingdomino"]) == 0
    out = capsys.readouterr().out
    assert "PROVED" in out and "near-full" in out and "one square past 5 x 5" in out
