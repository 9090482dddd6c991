"""Engines that crash, hang, flood or talk garbage are findings, never crashes of ours; and
whatever we start, we stop."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from gamecert.fuzz.cli.main import main
from gamecert.fuzz.engines.engine import EngineFault, EngineSpecError
from gamecert.fuzz.engines.recipes import open_engine
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.fuzz.search.campaign import run_campaign

BAD = [sys.executable, "-m", "examples.engines.bad.misbehave"]


@pytest.mark.parametrize("mode, kind", [
    ("garbage", "garbage"), ("hang", "hang"), ("exit", "crash"), ("flood", "flood"),
    ("wrong-id", "protocol"), ("internal", "crash"),
])
def test_misbehaving_engine_is_a_finding(mode: str, kind: str) -> None:
    engine = SubprocessEngine([*BAD, mode, "flit", "2"], timeout=1.5)
    engine.start()
    try:
        result = run_campaign("flit", engine, rounds=1, seed=0)
    finally:
        engine.close()
    assert result.status == "violations"
    f = result.findings[0]
    assert f.rules == ["ENGINE-ALIVE"] and f.kind == kind
    assert f.trace is not None


def test_hung_engine_and_its_children_are_killed(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    os.environ["MISBEHAVE_CHILD_PID"] = str(pidfile)
    try:
        engine = SubprocessEngine([*BAD, "hang", "flit", "0"], timeout=1.0)
        engine.start()
        engine.new_game()
        with pytest.raises(EngineFault) as err:
            engine.apply({"type": "setup", "at": [0, 0]})
        assert err.value.kind == "hang"
    finally:
        del os.environ["MISBEHAVE_CHILD_PID"]
        engine.close()
    child = int(pidfile.read_text())
    for _ in range(50):
        if not _alive(child):
            break
        time.sleep(0.05)
    assert not _alive(child), "the engine's child process was left running"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie has exited: only its entry remains
        return f.read().split()[2] != "Z"


def test_engine_command_that_does_not_exist() -> None:
    with pytest.raises(EngineSpecError, match="not found"):
        open_engine("flit", command="no-such-engine-anywhere --serve")


def test_cli_engine_command_that_does_not_exist(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "flit", "--engine-cmd", "no-such-engine-anywhere", "--rounds",
                 "1", "--quiet"]) == 3
    out, err = capsys.readouterr()
    assert "ENGINE UNUSABLE" in out and "not found" in out and "Traceback" not in out + err


def test_cli_engine_that_dies_at_start_is_unusable(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["certify", "flit", "--engine-cmd", f"{sys.executable} -c 'print(1)'",
                 "--rounds", "1", "--quiet"])
    assert code == 3
    assert "ENGINE UNUSABLE" in capsys.readouterr().out


def test_cli_python_object_that_does_not_exist(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certify", "flit", "--engine", "no_such_module:Engine", "--rounds", "1"]) == 3
    assert main(["certify", "flit", "--engine", "gamecert.reference_engine.flit:Nope", "--rounds",
                 "1"]) == 3
    assert main(["certify", "flit", "--engine", "not-a-path", "--rounds", "1"]) == 3
    assert "Traceback" not in capsys.readouterr().err


def test_cli_crashing_engine_mid_game_is_a_finding(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["certify", "flit", "--engine-cmd",
                 f"{sys.executable} -m examples.engines.bad.misbehave exit flit 4",
                 "--rounds", "1", "--quiet"])
    out = capsys.readouterr()
    assert code == 1 and "[ENGINE-ALIVE] crash" in out.out and "Traceback" not in out.err
