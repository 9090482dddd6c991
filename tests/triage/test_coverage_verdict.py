"""CERTIFIED only when every applicable rule was exercised: otherwise INCOMPLETE, exit 4.
Rules a profile switches off, or that only bot-check can see, are not applicable."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from gamecert.fuzz.cli.args import EXIT_INCOMPLETE, EXIT_OK, EXIT_UNUSABLE
from gamecert.fuzz.cli.main import main
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.reports.certificate import NOT_APPLICABLE, rule_rows
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.reference_engine import reference_session
from gamecert.spec import parse_catalogue


def test_unexercised_rule_means_incomplete(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["certify", "flit", "--engine", "reference", "--rounds", "1", "--quiet",
                 "--min-exercised", "1000000"])
    out = capsys.readouterr().out
    assert code == EXIT_INCOMPLETE
    assert "INCOMPLETE" in out and "CERTIFIED" not in out
    assert "exercised fewer than 1000000 times: FLIT-BOARD-SIZE" in out


def test_no_step_never_certifies(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["certify", "flit", "--engine", "reference", "--budget", "1e-9", "--quiet"])
    out = capsys.readouterr().out
    assert code == EXIT_INCOMPLETE and "no step was executed" in out


def test_reference_certifies_with_every_rule_exercised(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    assert main(["certify", "flit", "--engine", "reference", "--rounds", "6", "--quiet"]) \
        == EXIT_OK
    assert "CERTIFIED: 20 rules passed" in capsys.readouterr().out


def test_bot_only_rules_are_not_applicable_to_certify() -> None:
    result = run_campaign("carcassonne", InProcessEngine(reference_session("carcassonne")),
                          rounds=1, seed=0)
    rows = {r.rule: r for r in rule_rows(result)}
    assert rows["CARC-PROTO-LIMITS"].verdict == NOT_APPLICABLE
    assert "CARC-PROTO-LIMITS" not in result.applicable


def test_profile_rules_off_are_not_applicable(tmp_path: Path) -> None:
    doc = json.loads(resources.files("gamecert.spec").joinpath("flit.json").read_text())
    doc["profiles"][0]["rules_off"] = ["FLIT-WINNER-TIE"]
    parsed = parse_catalogue(json.dumps(doc), "flit.json")
    assert parsed.profile("standard").off == {"FLIT-WINNER-TIE"}
    doc["profiles"][0]["rules_off"] = ["FLIT-NO-SUCH"]
    with pytest.raises(Exception, match=r"rules_off: no rule 'FLIT-NO-SUCH'"):
        parse_catalogue(json.dumps(doc), "flit.json")


def test_unusable_engine_still_writes_its_report(tmp_path: Path) -> None:
    code = main(["certify", "flit", "--engine-cmd", "/nonexistent/engine", "--rounds", "1",
                 "--quiet", "--report", str(tmp_path)])
    assert code == EXIT_UNUSABLE
    doc = json.loads((tmp_path / "report.json").read_text())
    assert doc["status"] == "unusable" and doc["unusable"]
    xml = (tmp_path / "report.xml").read_text()
    assert 'name="engine start-up"' in xml and "<failure" in xml


def test_unusable_report_carries_the_engines_last_words(tmp_path: Path) -> None:
    command = "python3 -c 'import sys; sys.stderr.write(\"boom: no board\\n\"); sys.exit(1)'"
    code = main(["certify", "flit", "--engine-cmd", command, "--rounds", "1", "--quiet",
                 "--report", str(tmp_path)])
    assert code == EXIT_UNUSABLE
    assert "stderr: boom: no board" in (tmp_path / "report.xml").read_text()
