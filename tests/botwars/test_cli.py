"""`gamecert rules | certify | replay | prove botwars` through the command line's main()."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.args import EXIT_OK, EXIT_VIOLATIONS
from gamecert.fuzz.cli.main import main
from gamecert.schemas import first_error

from .fuzzing import CAT

LENIENT_FORMAT = engine_spec("botwars", "lenient_format")


def test_rules_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "botwars", "--profile", "lenient", "-v"]) == EXIT_OK
    out = capsys.readouterr().out
    assert all(rid in out for rid in CAT.rule_ids)
    assert "variant: drop-move" in out and "(chosen)" in out


def test_certify_the_reference_writes_a_clean_report(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["certify", "botwars", "--engine", "reference", "--rounds", "12", "--quiet",
                 "--report", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == EXIT_OK, out
    assert "CERTIFIED" in out
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert first_error("report", report) is None
    assert report["status"] == "certified" and report["rounds"] == 12
    assert report["findings"] == []
    assert (tmp_path / "report.xml").read_text("utf-8").startswith("<testsuite")


def test_certify_the_default_engine_a_subprocess(capsys: pytest.CaptureFixture[str]) -> None:
    """Without --engine, gamecert runs the bundled reference over the wire protocol."""
    # clean (one round may leave a rare rule unexercised: INCOMPLETE, exit 4)
    assert main(["certify", "botwars", "--rounds", "1", "--quiet"]) in (EXIT_OK, 4)
    assert "-m gamecert serve botwars" in capsys.readouterr().out


def test_certify_a_mutant_then_replay_its_trace(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["certify", "botwars", "--engine", LENIENT_FORMAT, "--rounds", "2", "--quiet",
                 "--report", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == EXIT_VIOLATIONS, out
    assert "RULES VIOLATED" in out
    report = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert first_error("report", report) is None
    assert report["status"] == "violations"
    verdicts = {r["id"]: r["verdict"] for r in report["rules"]}
    assert verdicts["BOTWARS-FORMAT-DQ"] == "violated"
    assert sum(v == "violated" for v in verdicts.values()) == 1
    trace = tmp_path / report["findings"][0]["trace"]
    assert trace.is_file()

    assert main(["replay", str(trace), "--engine", LENIENT_FORMAT]) == EXIT_VIOLATIONS
    assert "reproduced: [BOTWARS-FORMAT-DQ]" in capsys.readouterr().out
    assert main(["replay", str(trace), "--engine", "reference"]) == EXIT_OK
    assert "clean" in capsys.readouterr().out


def test_prove_the_reference_and_a_mutant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prove", "botwars", "--engine", "reference"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "PROVED" in out and "0 disagreements" in out
    code = main(["prove", "botwars", "--engine",
                 engine_spec("botwars", "battle_pairwise")])
    out = capsys.readouterr().out
    assert code == EXIT_VIOLATIONS
    assert "NOT POSSIBLE" in out
    hit = re.search(r"(\d+) disagreements", out)
    assert hit and int(hit.group(1)) > 0, out
