"""The report folder is the campaign's state: a campaign killed with SIGKILL resumes with
every finding kept; Ctrl-C ends it cleanly with a complete partial report."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.args import EXIT_VIOLATIONS
from gamecert.fuzz.cli.main import main
from gamecert.fuzz.search.parallel import WORKER_TAG
from tests.processes import carrying, settled, tokens_under

ROOT = Path(__file__).resolve().parents[2]
TWO = engine_spec("flit", "two_causes")


def _start(report: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "gamecert", "certify", "flit", "--engine",
                             TWO, "--budget", "120", "--report", str(report), "--quiet"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            # a shell's background job ignores SIGINT, and children inherit it
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for_a_finding(report: Path, proc: subprocess.Popen[bytes]) -> dict[str, object]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        path = report / "checkpoint.json"
        if path.exists():
            doc: dict[str, object] = json.loads(path.read_text())
            if doc["departures"]:
                return doc
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    raise AssertionError("no checkpoint with a finding within 120 s")


def test_sigkill_then_resume_keeps_every_finding(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "out"
    proc = _start(report)
    tokens: set[str] = set()
    try:
        before = _wait_for_a_finding(report, proc)
        tokens = tokens_under(proc.pid, WORKER_TAG)  # this campaign's workers' only
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    # its workers (with outcomes, traces included, still to send) are gone too
    assert settled(lambda: carrying(WORKER_TAG, tokens)) == [], \
        "a worker or its engine outlived the killed campaign"
    assert before["finished"] is False
    ids = {d["signature"] for d in before["departures"]}  # type: ignore[attr-defined]
    rounds = int(before["rounds"])  # type: ignore[call-overload]
    code = main(["certify", "flit", "--engine", TWO, "--resume", str(report), "--rounds",
                 str(rounds + 2), "--quiet"])
    assert code == EXIT_VIOLATIONS
    assert f"resuming after round {rounds}" in capsys.readouterr().out
    after = json.loads((report / "checkpoint.json").read_text())
    assert after["finished"] is True and after["rounds"] == rounds + 2
    assert ids <= {d["signature"] for d in after["departures"]}
    doc = json.loads((report / "report.json").read_text())
    for f in doc["findings"]:
        assert (report / f["trace"]).is_file()


def test_ctrl_c_ends_with_a_partial_report(tmp_path: Path) -> None:
    report = tmp_path / "out"
    proc = _start(report)
    _wait_for_a_finding(report, proc)
    os.kill(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert b"Traceback" not in err and b"INTERRUPTED" in out
    doc = json.loads((report / "report.json").read_text())
    assert doc["interrupted"] is True and doc["findings"]
    assert json.loads((report / "checkpoint.json").read_text())["finished"] is False


def test_resume_needs_a_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "flit", "--engine", TWO, "--resume", str(tmp_path)]) == 2
    assert "no checkpoint to resume" in capsys.readouterr().err


def test_a_resumed_follow_mode_campaign_keeps_its_draws_and_its_steps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Behind the minimum wrapper (the engine draws for itself): the checkpoint holds the
    draws followed so far and the steps per example, so a resumed campaign tests every draw
    since the start and plays examples as long as before."""
    report = tmp_path / "out"
    engine = "minimal:reference"
    assert main(["certify", "kingdomino", "--engine", engine, "--rounds", "1", "--steps",
                 "40", "--report", str(report), "--quiet", "--db", "none"]) == 0
    first = json.loads((report / "checkpoint.json").read_text())
    assert first["steps"] == 40 and first["chance"], "no draws checkpointed"
    drawn = {tuple(k) for k, *_ in first["chance"]}
    assert main(["certify", "kingdomino", "--engine", engine, "--resume", str(report),
                 "--rounds", "2", "--quiet", "--db", "none"]) == 0
    assert "resuming after round 1" in capsys.readouterr().out
    after = json.loads((report / "checkpoint.json").read_text())
    assert after["steps"] == 40 and after["rounds"] == 2
    assert drawn < {tuple(k) for k, *_ in after["chance"]}  # the first round's draws kept
    tests = json.loads((report / "report.json").read_text())["chance_statistics"]["tests"]
    assert sum(t["samples"] for t in tests) == len(after["chance"])
