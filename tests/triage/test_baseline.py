"""Baselines: a run with its own earlier report as baseline exits 0; one more departure
exits 1 naming only the new one; hand-written JSON and TOML baselines; bad files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.args import EXIT_BAD_INPUT, EXIT_OK, EXIT_VIOLATIONS
from gamecert.fuzz.cli.main import main

ONE = engine_spec("flit", "self_neighbour")
TWO = engine_spec("flit", "two_causes")
# the runs of one test must play the same rounds: with no example database, a seed does
# (by default a repeated campaign starts from the examples the earlier one saved)
RUN = ["--rounds", "8", "--seed", "0", "--quiet", "--db", "none"]


def _certify(engine: str, *extra: str) -> int:
    return main(["certify", "flit", "--engine", engine, *RUN, *extra])


def test_own_report_as_baseline_then_one_more_mutation(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    first = tmp_path / "first"
    assert _certify(ONE, "--report", str(first)) == EXIT_VIOLATIONS
    report = json.loads((first / "report.json").read_text())
    [finding] = report["findings"]
    assert finding["primary"] == "FLIT-MOVE-VALID" and finding["count"] > 1
    capsys.readouterr()

    assert _certify(ONE, "--baseline", str(first / "report.json")) == EXIT_OK
    out = capsys.readouterr().out
    assert "CERTIFIED WITH DOCUMENTED DEPARTURES" in out and "accepted by the baseline" in out

    second = tmp_path / "second"
    code = _certify(TWO, "--baseline", str(first / "report.json"), "--report", str(second))
    assert code == EXIT_VIOLATIONS
    doc = json.loads((second / "report.json").read_text())
    new = [f for f in doc["findings"] if f["accepted"] is None]
    assert [f["primary"] for f in new] == ["FLIT-WINNER-TIE"]
    verdicts = {r["id"]: r["verdict"] for r in doc["rules"]}
    assert verdicts["FLIT-WINNER-TIE"] == "violated"
    assert verdicts["FLIT-MOVE-VALID"] == "accepted"


def test_written_baseline_json_and_toml(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    _certify(ONE, "--report", str(tmp_path))
    accepted = tmp_path / "accepted.json"
    assert main(["baseline", str(tmp_path / "report.json"), "-o", str(accepted)]) == EXIT_OK
    doc = json.loads(accepted.read_text())
    assert doc["accepted"][0]["rule"] == "FLIT-MOVE-VALID" and doc["accepted"][0]["reason"]
    assert _certify(ONE, "--baseline", str(accepted)) == EXIT_OK
    toml = tmp_path / "accepted.toml"
    toml.write_text('[[accepted]]\nrule = "FLIT-MOVE-VALID"\nreason = "known, ticket 12"\n')
    assert _certify(ONE, "--baseline", str(toml)) == EXIT_OK
    assert "known, ticket 12" in capsys.readouterr().out


@pytest.mark.parametrize("text, says", [
    ("{", "not valid JSON"),
    ('{"format": "gamecert-baseline/1", "accepted": [{"rule": "X"}]}', "reason"),
    ("[[accepted]]\nrule = ", "not valid TOML"),
])
def test_a_broken_baseline_names_the_file(tmp_path: Path, text: str, says: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / ("b.toml" if "[[" in text else "b.json")
    path.write_text(text)
    assert _certify(ONE, "--baseline", str(path)) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert str(path) in err and says in err and "Traceback" not in err
