"""The hostile gallery's set-up: where the hostile engines are, how to name one as a
command, and a check after every test that nothing we started is still running."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "examples" / "engines" / "hostile"


def hostile(name: str, *args: str, game: str = "flit") -> str:
    """The --engine-cmd for a hostile engine, runnable from any folder."""
    return " ".join([sys.executable, str(HOSTILE / f"{name}.py"), game, *args])


def running_hostile() -> list[str]:
    """Live (not zombie) processes that run a hostile engine of this repository, or that
    carry a gamecert engine token and were started from here."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read()
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                env = f.read()
        except OSError:
            continue
        if stat[stat.rfind(b")") + 2:].split()[0] == b"Z":
            continue
        if str(HOSTILE) in cmd or (b"GAMECERT_ENGINE_TOKEN=" in env
                                   and b"HOSTILE_PID_FILE=" in env):
            found.append(f"{entry.name}: {cmd[:120]}")
    return found


@pytest.fixture(autouse=True)
def nothing_left_running() -> Iterator[None]:
    yield
    for _ in range(40):  # a kill takes a moment to be seen in /proc
        left = running_hostile()
        if not left:
            return
        time.sleep(0.05)
    pytest.fail("processes left running: " + "; ".join(left))
