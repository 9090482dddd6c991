"""The hostile gallery: misbehaving engines, each with the verdict and exit code gamecert
must give (docs/reliability.md lists them). Whatever they do, gamecert answers with a
verdict, never a traceback, and leaves nothing running (tests/hostile/conftest.py)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from gamecert.fuzz.cli.main import main
from tests.hostile.conftest import hostile

# engine, its arguments, exit code, what the output must say
GALLERY = [
    ("crash_at_start", (), 3, ["ENGINE UNUSABLE", "cannot open my rules file"]),
    ("silent", (), 3, ["ENGINE UNUSABLE", "(hang)"]),
    ("lying_game", (), 3, ["ENGINE UNUSABLE", "plays 'chess', not 'flit'"]),
    ("crash_mid_game", (), 1, ["[ENGINE-ALIVE] crash", "segmentation fault (pretend)",
                               "mid-game", " 1 violated (ENGINE-ALIVE: a harness check)"]),
    # issue 29: a crash before any game is not "mid-game"
    ("crash_before_hello", (), 3, ["ENGINE UNUSABLE", "at start-up; it was answering hello",
                                   "missing licence file"]),
    # issue 29: a crash while a grandchild holds stdout is a crash, with its stderr
    ("crash_holding_stdout", (), 1, ["[ENGINE-ALIVE] crash", "exited with code 4",
                                     "out of memory (pretend)"]),
    # issue 29: a reply nested 200,000 deep is garbage, not a RecursionError of ours
    ("deep_reply", (), 1, ["[ENGINE-ALIVE] garbage", "nests deeper than 100 levels"]),
    # issue 29: a lone surrogate and a right-to-left override in the state: shown escaped
    ("surrogate_state", (), 1, ["[ENGINE-AGREES] divergence", "note\\u202egnp.exe",
                                "\\ud800 bad \\udfff"]),
    # crash_nth_request and lying_stateless: test_history_dependent_crash_traces_...
    ("hang", (), 1, ["[ENGINE-ALIVE] hang"]),
    # a well-behaved engine in one round: clean (exit 0; 4 where one round leaves a rule
    # unreached: since Flit's stretches, one round reaches them all)
    ("slow_under", (), (0, 4), [" 0 violated"]),
    ("slow_over", ("10",), 1, ["[ENGINE-ALIVE] hang"]),
    ("garbage", (), 1, ["[ENGINE-ALIVE] garbage", " 1 violated (ENGINE-ALIVE"]),
    ("huge_line", (), 1, ["[ENGINE-ALIVE] flood"]),
    ("wrong_shape", (), 1, ["[ENGINE-ALIVE] protocol", "lacks 'events'"]),
    ("wrong_id", (), 1, ["[ENGINE-ALIVE] protocol"]),
    ("exit_between", (), 1, ["[ENGINE-ALIVE] crash"]),
    ("partial_line_exit", (), 1, ["[ENGINE-ALIVE] crash"]),
    ("stderr_flood", (), (0, 4), [" 0 violated"]),
    ("setsid_child", (), (0, 4), [" 0 violated"]),
]


def codes(code: int | tuple[int, ...]) -> tuple[int, ...]:
    """The exit codes a gallery case allows."""
    return code if isinstance(code, tuple) else (code,)


@pytest.mark.parametrize("name, args, code, says", GALLERY, ids=[g[0] for g in GALLERY])
def test_hostile_engine_verdict(name: str, args: tuple[str, ...], code: int | tuple[int, ...],
                                says: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    got = main(["certify", "flit", "--engine-cmd", hostile(name, *args), "--timeout", "1",
                "--rounds", "1", "--quiet"])
    out, err = capsys.readouterr()
    assert got in codes(code), out + err
    for text in says:
        assert text in out, f"{text!r} not in:\n{out}"
    assert "Traceback" not in out + err
    assert got != 1 or " 0 violated" not in out, "a run with findings says what broke"
    assert "\u202e" not in out + err and "\ud800" not in out + err  # never raw


def test_setsid_grandchild_is_killed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A grandchild in a session of its own (out of the engine's process group) does not
    outlive certify."""
    pids = tmp_path / "pids"
    monkeypatch.setenv("HOSTILE_PID_FILE", str(pids))
    assert main(["certify", "flit", "--engine-cmd", hostile("setsid_child"), "--rounds", "2",
                 "--quiet"]) in (0, 4)  # clean; two rounds may leave a rule unexercised
    started = [int(p) for p in pids.read_text().split()]
    assert started, "the engine did not start its grandchild"
    for pid in started:
        assert not _alive(pid), f"grandchild {pid} survived"


def _alive(pid: int) -> bool:
    for _ in range(40):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return False
        except OSError:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("name", ["crash_nth_request", "lying_stateless"])
def test_history_dependent_crash_traces_replay_on_a_fresh_process(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An engine that dies on its 150th request (more than one game): every reported trace
    replays, alone, on a fresh process, to the same rule and kind, whether or not the
    engine claims a new game forgets everything."""
    report = tmp_path / "out"
    command = hostile(name)
    assert main(["certify", "flit", "--engine-cmd", command, "--rounds", "2", "--quiet",
                 "--report", str(report)]) == 1
    doc = json.loads((report / "report.json").read_text())
    traces = [f for f in doc["findings"] if f["trace"]]
    assert traces
    for f in traces:
        trace = json.loads((report / f["trace"]).read_text())
        assert trace["finding"]["confirmation"] == "confirmed"
        assert trace.get("prelude"), "a crash on the 150th request needs the games before it"
        capsys.readouterr()
        assert main(["replay", str(report / f["trace"]), "--engine-cmd", command]) == 1
        out = capsys.readouterr().out
        assert "reproduced" in out and f"[{', '.join(f['rules'])}] {f['kind']}" in out


def test_nondeterministic_engine_is_said_to_be(capsys: pytest.CaptureFixture[str]) -> None:
    """An engine that breaks at random: its findings are flagged, never certified as
    reproducible shrunk traces that are not."""
    code = main(["certify", "flit", "--engine-cmd", hostile("nondeterministic"), "--rounds",
                 "3", "--quiet"])
    out = capsys.readouterr().out
    assert code == 1
    flags = [line for line in out.splitlines() if line.startswith("finding ")]
    assert flags
    assert any("nondeterministic" in f or "not reproducible" in f for f in flags), out


def test_hostile_engines_run_from_any_folder(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["certify", "flit", "--engine-cmd", hostile("crash_mid_game"),
                     "--rounds", "1", "--quiet"]) == 1
    finally:
        os.chdir(here)
    assert "[ENGINE-ALIVE] crash" in capsys.readouterr().out


def test_terminated_gamecert_leaves_nothing_running(tmp_path: Path) -> None:
    """gamecert stopped by SIGTERM mid-run (a CI job cancelled) still stops its engine and
    the engine's grandchild in a session of its own."""
    import signal
    import subprocess
    import sys

    pids = tmp_path / "pids"
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamecert", "certify", "flit", "--engine-cmd",
         hostile("setsid_child"), "--budget", "60", "--quiet"],
        env={**os.environ, "HOSTILE_PID_FILE": str(pids)}, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE)
    try:
        for _ in range(200):
            if pids.exists() and pids.read_text().strip():
                break
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM
    assert b"Traceback" not in err
    for pid in (int(p) for p in pids.read_text().split()):
        assert not _alive(pid), f"grandchild {pid} survived"


def test_replay_says_when_an_engine_is_not_deterministic(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`gamecert replay` replays each trace on two fresh engines; an engine that is buggy
    on every other start is called nondeterministic, not certified clean or broken."""
    monkeypatch.setenv("HOSTILE_STATE_FILE", str(tmp_path / "launches"))
    trace = tmp_path / "t.json"
    trace.write_text(json.dumps({
        "format": "gamecert-trace/1", "game": "flit", "profile": "standard", "seed": 0,
        "start": {"kind": "new_game"}, "ops": _setup_ops(),
        "finding": {"rules": ["ENGINE-AGREES"], "kind": "divergence", "message": ""}}))
    code = main(["replay", str(trace), "--engine-cmd", hostile("flip_flop", "1")])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "NONDETERMINISTIC" in out and "clean" in out


def _setup_ops() -> list[dict[str, object]]:
    """The first moves of a standard Flit game, as the reference plays them."""
    from gamecert.reference_engine import reference_session

    session = reference_session("flit")
    session.new_game("standard", 0)
    ops: list[dict[str, object]] = []
    for _ in range(4):
        legal = session.legal()
        action = (legal.get("actions") or [o["action"] for o in legal["outcomes"]])[0]
        session.apply(action)
        ops.append({"op": "apply", "action": action})
    return ops
