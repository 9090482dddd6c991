"""The hostile gallery's set-up: where the hostile engines are, how to name one as a
command, and a check after every test that nothing it started is still running.

Each test gets a mark of its own in its environment (HOSTILE_TEST_MARK), which every
process it starts inherits (engines, their children, gamecert subprocesses and their
workers): the check counts the processes carrying this test's mark, so a campaign another
test run or a developer has going on the same machine is never taken for an orphan."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from examples.engines import path_of
from tests.processes import carrying, settled

ROOT = Path(__file__).resolve().parents[2]
MARK = "HOSTILE_TEST_MARK"


def hostile(name: str, *args: str, game: str = "flit") -> str:
    """The --engine-cmd for a hostile engine, runnable from any folder."""
    return " ".join([sys.executable, str(path_of("hostile", name)), game, *args])


def running_hostile(mark: str | None = None) -> list[int]:
    """Living processes started by the test that carries `mark` (this one's by default),
    this process aside, and multiprocessing's resource tracker: one per test session,
    started by the first campaign with worker processes, it lives as long as the session."""
    mark = mark or os.environ.get(MARK, "")
    return [pid for pid in carrying(MARK, {mark})
            if pid != os.getpid() and not _session_helper(pid)]


def _session_helper(pid: int) -> bool:
    try:
        return "multiprocessing.resource_tracker" in " ".join(psutil.Process(pid).cmdline())
    except psutil.Error:
        return False


@pytest.fixture(autouse=True)
def nothing_left_running(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    yield
    left = settled(lambda: running_hostile(mark), seconds=2.0)
    if left:
        pytest.fail(f"processes left running: {left}")
