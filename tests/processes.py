"""Finding a test's own processes (with psutil), for the no-orphan checks.

A check that nothing outlived a campaign must count that campaign's processes only: another
`gamecert certify --jobs 2` on the same machine (a developer's, another test run's) carries
the same worker variable, with another value. So processes are matched by a variable's
value, never by its presence alone: the value of the worker token a campaign's workers
were started with (`tokens_under`), or a mark each test puts in its own environment
(`tests/hostile/conftest.py`). Test helpers only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection

import psutil


def carrying(var: str, values: Collection[str]) -> list[int]:
    """Living (not zombie) processes whose environment sets `var` to one of `values`."""
    if not values:
        return []
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                continue
            if proc.environ().get(var) in values:
                found.append(proc.pid)
        except (psutil.Error, OSError):
            continue  # gone meanwhile, or not ours to read
    return found


def tokens_under(pid: int, var: str) -> set[str]:
    """The values of `var` in the environments of `pid`'s living descendants (a running
    campaign's workers and their engines)."""
    values = set()
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return set()
    for child in children:
        try:
            value = child.environ().get(var)
        except (psutil.Error, OSError):
            continue
        if value:
            values.add(value)
    return values


def settled(check: Callable[[], list[int]], seconds: float = 15.0) -> list[int]:
    """What `check` still finds once the processes had `seconds` to go (a kill takes a
    moment to be seen)."""
    deadline = time.monotonic() + seconds
    left = check()
    while left and time.monotonic() < deadline:
        time.sleep(0.2)
        left = check()
    return list(left)
