"""`certify --jobs N`: rounds in worker processes find exactly what one process finds for
the same seed and rounds, and nothing the campaign started outlives it (normal end, Ctrl-C,
SIGKILL). The no-orphan checks count this test's campaign only (its worker token's value,
tests/processes.py), so another campaign running on the machine does not fail them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from examples.engines import engine_spec
from gamecert.fuzz.cli.args import EXIT_VIOLATIONS
from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.engines.recipes import engine_recipe
from gamecert.fuzz.search.campaign import run_campaign
from gamecert.fuzz.search.parallel import WORKER_TAG, ProcessRunner
from gamecert.reference_engine import reference_session
from tests.processes import carrying, settled, tokens_under

ROOT = Path(__file__).resolve().parents[2]
TWO = engine_spec("flit", "two_causes")  # two broken rules, found in rounds 0-3
TIMINGS = {"duration_s", "runner", "shrink_allowance_s", "load"}


def _certify(report: Path, jobs: int, *extra: str) -> dict[str, Any]:
    # Each run in a process of its own with one hash seed: the Flit oracles report the
    # first of a set of bad moves, and set order follows Python's per-process hash seed
    # (a replay in another process needs the same PYTHONHASHSEED; docs/cluster.md)
    run = subprocess.run([sys.executable, "-m", "gamecert", "certify", "flit", "--engine", TWO,
                          "--rounds", "4", "--seed", "3", "--jobs", str(jobs), "--db", "none",
                          "--report", str(report), "--quiet", *extra],
                         cwd=ROOT, capture_output=True, timeout=300,
                         env={**os.environ, "PYTHONHASHSEED": "0"})
    assert run.returncode == EXIT_VIOLATIONS, run.stderr.decode()
    doc: dict[str, Any] = json.loads((report / "report.json").read_text())
    return doc


def test_jobs_2_finds_what_jobs_1_finds(tmp_path: Path) -> None:
    one = _certify(tmp_path / "one", 1)
    two = _certify(tmp_path / "two", 2)
    assert one["runner"] == "serial" and two["runner"] == "2 local processes"
    assert len(one["findings"]) == 2  # the comparison below compares something
    for doc in (one, two):
        for key in TIMINGS:
            doc.pop(key)
    assert one == two  # findings, counts, traces, coverage, verdict, round seeds
    for f in one["findings"]:
        assert (tmp_path / "one" / f["trace"]).read_text() == \
            (tmp_path / "two" / f["trace"]).read_text()


def test_an_engine_handed_over_open_runs_with_one_job() -> None:
    engine = InProcessEngine(reference_session("flit"))
    result = run_campaign("flit", engine, rounds=1, seed=0, jobs=2)
    assert result.runner == "serial" and result.coverage.steps > 0
    assert result.runner_note is not None and "1 job" in result.runner_note


def _ours(tokens: set[str]) -> Any:
    """A check for the processes (workers, their engines) that carry one of these worker
    tokens: this test's campaign's, never another's."""
    return lambda: carrying(WORKER_TAG, tokens)


MARK = "GAMECERT_TEST_MARK"  # set in a campaign's environment: every process under it has it


def _marked(mark: str) -> Any:
    return lambda: carrying(MARK, {mark})


def _session(sid: int) -> list[int]:
    """Living processes of session `sid` (the campaign's own workers are in it)."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry.name}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == sid and fields[0] != "Z":
            out.append(int(entry.name))
    return out


def test_a_campaign_with_jobs_leaves_no_process_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens: set[str] = set()  # the worker token of this campaign's runner
    start = ProcessRunner.__init__

    def noted(self: ProcessRunner, *args: Any, **kwargs: Any) -> None:
        start(self, *args, **kwargs)
        tokens.add(self.tag)

    monkeypatch.setattr(ProcessRunner, "__init__", noted)
    # the default engine is a command: every worker starts an engine process of its own
    recipe = engine_recipe("flit", command=[sys.executable, "-m", "gamecert", "serve", "flit"])
    result = run_campaign("flit", recipe, rounds=3, seed=1, jobs=2)
    assert result.runner == "2 local processes" and result.coverage.steps > 0
    assert tokens, "the campaign's workers were started with a token"
    assert settled(_ours(tokens)) == []
    import multiprocessing

    assert multiprocessing.active_children() == []


def _start(report: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "gamecert", "certify", "flit", "--budget",
                             "120", "--jobs", "2", "--report", str(report), "--quiet"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _tokens(proc: subprocess.Popen[bytes]) -> set[str]:
    """The worker tokens under a running campaign, read from its workers and engines."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = tokens_under(proc.pid, WORKER_TAG)
        if found:
            return found
        time.sleep(0.1)
    return set()


def _wait_for_rounds(report: Path, proc: subprocess.Popen[bytes], n: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        path = report / "checkpoint.json"
        if path.exists() and json.loads(path.read_text())["rounds"] >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.2)
    raise AssertionError(f"no checkpoint with {n} rounds within 120 s")


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_stopping_a_campaign_with_jobs_stops_everything(tmp_path: Path, how: int) -> None:
    report = tmp_path / "out"
    proc = _start(report)
    tokens: set[str] = set()
    try:
        _wait_for_rounds(report, proc, 2)
        tokens = _tokens(proc)
        assert tokens and _ours(tokens)(), "the workers' engines carry the worker tag"
    finally:
        os.kill(proc.pid, how)
        out, err = proc.communicate(timeout=60)
    if how == signal.SIGINT:  # a clean end, with a complete partial report
        assert proc.returncode == 130, (out, err)
        assert b"Traceback" not in err and b"INTERRUPTED" in out
        assert json.loads((report / "report.json").read_text())["interrupted"] is True
    assert settled(lambda: _session(proc.pid)) == [], "a worker outlived the campaign"
    assert settled(_ours(tokens)) == [], "an engine outlived the campaign"
    if how == signal.SIGKILL:  # the checkpoint holds: resume, with jobs, to the end
        rounds = int(json.loads((report / "checkpoint.json").read_text())["rounds"])
        mark = f"resume-{os.getpid()}-{time.monotonic_ns()}"
        again = subprocess.run([sys.executable, "-m", "gamecert", "certify", "flit",
                                "--resume", str(report), "--rounds", str(rounds + 2),
                                "--jobs", "2", "--quiet"], cwd=ROOT, capture_output=True,
                               timeout=300, env={**os.environ, MARK: mark})
        assert f"resuming after round {rounds}".encode() in again.stdout, again.stderr
        after = json.loads((report / "checkpoint.json").read_text())
        assert after["finished"] is True and after["rounds"] == rounds + 2
        assert settled(_marked(mark)) == []


def test_a_workers_error_reaches_the_campaign() -> None:
    """A worker ends at once once its work is done (`os._exit`, no interpreter teardown):
    what it sent last, here why it could not open its engine, still reaches the campaign,
    and the worker is gone after `close`."""
    from gamecert.fuzz.search.parallel import ProcessRunner
    from gamecert.fuzz.search.rounds import RoundError, RoundJob, RoundSetup

    setup = RoundSetup("flit", {"kind": "python", "object": "examples.engines.flit.no_such:X"},
                       "standard", seed=0, examples=1, steps=5)
    runner = ProcessRunner(setup, 1)
    try:
        runner.submit(RoundJob(0, frozenset()))
        with pytest.raises(RoundError, match="could not start the engine"):
            runner.next_outcome()
    finally:
        runner.close()
    assert all(not proc.is_alive() for proc in runner.workers)
    assert all(proc.exitcode == 0 for proc in runner.workers)
