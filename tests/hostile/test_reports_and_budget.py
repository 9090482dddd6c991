"""Hostile cases for issue 14's parts 3 and 4 (the lead's): a report is always written when
--report is given, whatever the outcome, and atomically; a budget is a wall-clock promise,
with a stated shrink allowance and progress during long rounds.

These are written against the behaviour the issue specifies; they pass once that work is
merged (until then, some fail: that is expected on the `trust` branch alone)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from gamecert.fuzz.cli.main import main
from gamecert.schemas import load_schema
from tests.hostile.conftest import hostile


@pytest.mark.parametrize("name, stderr_says", [
    ("crash_at_start", "cannot open my rules file"),
    ("silent", None),
])
def test_unusable_engine_still_gets_a_report(name: str, stderr_says: str | None,
                                              tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "out"
    assert main(["certify", "flit", "--engine-cmd", hostile(name), "--timeout", "1",
                 "--rounds", "1", "--quiet", "--report", str(report)]) == 3
    doc = json.loads((report / "report.json").read_text())
    assert not list(Draft202012Validator(load_schema("report")).iter_errors(doc))
    assert doc["status"] == "unusable" and doc["unusable"]
    xml = (report / "report.xml").read_text()
    assert "<failure" in xml  # a failing start-up case a CI job can show
    if stderr_says:
        assert stderr_says in xml  # the engine's last words
    assert "Traceback" not in capsys.readouterr().err


def test_report_files_are_written_whole(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Atomic writes: nothing but finished report and trace files is left behind."""
    report = tmp_path / "out"
    assert main(["certify", "flit", "--engine-cmd", hostile("crash_mid_game"),
                 "--rounds", "1", "--quiet", "--report", str(report)]) == 1
    left = sorted(p.relative_to(report).as_posix() for p in report.rglob("*")
                  if p.is_file() and not p.relative_to(report).as_posix().startswith(
                      ".hypothesis/"))  # Hypothesis's own files, kept out of the user's folder
    assert "report.json" in left and "report.xml" in left and "report.html" in left
    assert all(p.endswith((".json", ".xml", ".html")) and not Path(p).name.startswith(".")
               for p in left), left
    for p in left:
        if p.endswith(".json"):
            json.loads((report / p).read_text())


@pytest.mark.timeout(120)  # a broken promise must fail, not hold the suite for ten minutes
def test_budget_is_a_wall_clock_promise(capsys: pytest.CaptureFixture[str]) -> None:
    """An engine that answers every request just under the time limit: the run ends within
    budget + one reply time-out + the shrink allowance it states."""
    budget, timeout = 3.0, 1.0
    started = time.monotonic()
    code = main(["certify", "flit", "--engine-cmd", hostile("slow_under", "1"),
                 "--timeout", str(timeout), "--budget", str(budget), "--quiet"])
    elapsed = time.monotonic() - started
    out, err = capsys.readouterr()
    assert code in (0, 1, 3, 4)
    said = re.search(r"shrink allowance[^0-9]*([0-9]+(?:\.[0-9]+)?) ?s", out + err)
    assert said, "the run must state its shrink allowance"
    allowance = float(said.group(1))
    start_up = 4 * timeout  # the hello may take four replies' time
    assert elapsed <= budget + timeout + allowance + start_up, (elapsed, allowance)


@pytest.mark.timeout(120)
def test_progress_shows_during_a_long_round(capsys: pytest.CaptureFixture[str]) -> None:
    """Without -q, progress lines appear while the first round is still running."""
    main(["certify", "flit", "--engine-cmd", hostile("slow_under", "1"), "--timeout", "1",
          "--budget", "8"])
    err = capsys.readouterr().err
    assert re.search(r"progress:.*rounds 0\b", err), err[-2000:]
