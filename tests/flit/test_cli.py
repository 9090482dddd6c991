"""The command line: exit codes, reports that match their schema, replays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from examples.engines import engine_spec
from gamecert.fuzz.cli.main import main
from gamecert.schemas import load_schema


def test_certify_reference_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    # clean; two rounds may leave a rare rule unexercised (INCOMPLETE, exit 4)
    assert main(["certify", "flit", "--engine", "reference", "--rounds", "2", "--quiet"]) in (0, 4)
    out = capsys.readouterr().out
    assert " 0 violated" in out and "seed 0" in out and "--rounds 2" in out


def test_certify_mutant_writes_report_and_replayable_trace(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report"
    code = main(["certify", "flit", "--engine", engine_spec("flit", "turncap_off_by_one"),
                 "--rounds", "10", "--quiet", "--report", str(report)])
    assert code == 1
    doc = json.loads((report / "report.json").read_text())
    assert not list(Draft202012Validator(load_schema("report")).iter_errors(doc))
    assert doc["status"] == "violations"
    verdicts = {r["id"]: r["verdict"] for r in doc["rules"]}
    assert verdicts["FLIT-END-TURNCAP"] == "violated"
    assert "<failure" in (report / "report.xml").read_text()
    trace = report / doc["findings"][0]["trace"]
    capsys.readouterr()
    assert main(["replay", str(trace), "--engine",
                 engine_spec("flit", "turncap_off_by_one")]) == 1
    assert "reproduced" in capsys.readouterr().out
    assert main(["replay", str(trace), "--engine", "reference"]) == 0
    assert "clean" in capsys.readouterr().out


def test_replay_of_a_trace_that_is_not_json(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "t.json"
    bad.write_text("this is { not json")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and "not valid JSON" in err and "Traceback" not in err


@pytest.mark.parametrize("doc, says", [
    ({"format": "gamecert-trace/1", "game": "flit"}, "not a gamecert trace"),
    ({"format": "gamecert-trace/1", "game": "flit", "profile": "standard",
      "start": {"kind": "state", "state": {"board": "x"}}, "ops": []},
     "rejected by the reference"),
    ({"format": "gamecert-trace/1", "game": "flit", "profile": "standard",
      "start": {"kind": "new_game"}, "ops": [{"op": "apply", "action": {"type": "pass"}}]},
     "illegal for the reference"),
    ({"format": "gamecert-trace/1", "game": "flit", "profile": "no-such",
      "start": {"kind": "new_game"}, "ops": []}, "no profile"),
])
def test_malformed_traces_say_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            doc: dict[str, object], says: str) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path), "--engine", "reference"]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "chess"]) == 2
    assert main(["certify", "flit", "--profile", "nope", "--engine", "reference"]) == 2
    with pytest.raises(SystemExit) as err:
        main(["certify"])
    assert err.value.code == 2
    assert "Traceback" not in capsys.readouterr().err
