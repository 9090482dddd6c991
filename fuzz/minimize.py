"""Shrink a finding's trace by replaying it with operations removed.

Hypothesis's own shrinker re-runs whole examples thousands of times; our traces are short
lists of operations from a fixed start, so dropping operations one at a time and keeping
each drop that still shows the same rule is cheap, bounded and deterministic.
"""

from __future__ import annotations

import time
from typing import Any

from gamecert.fuzz.engines import Engine
from gamecert.fuzz.lockstep import Finding
from gamecert.fuzz.trace import TraceError, replay


def minimize(finding: Finding, engine: Engine, *, muted: frozenset[str] = frozenset(),
             seconds: float = 10.0, max_replays: int = 300) -> Finding:
    """A finding with the shortest trace found that still breaks one of its rules."""
    if not finding.trace:
        return finding
    doc: dict[str, Any] = dict(finding.trace)
    rules = set(finding.rules)
    # the failing operation is the last one that matters
    ops = list(doc["ops"])[: finding.op_index + 1] if finding.op_index >= 0 else list(doc["ops"])
    best = finding
    deadline = time.monotonic() + seconds
    replays = 0

    def attempt(candidate: list[Any]) -> Finding | None:
        nonlocal replays
        replays += 1
        try:
            result = replay({**doc, "ops": candidate, "finding": {"rules": sorted(rules)}},
                            engine, muted=muted - rules)
        except TraceError:
            return None  # dropping that operation made a later one meaningless
        f = result.finding
        return f if f is not None and set(f.rules) & rules else None

    shrunk = attempt(ops)
    if shrunk is None:
        return finding  # does not reproduce from its own trace: keep it as found
    best, ops = shrunk, ops[: shrunk.op_index + 1]
    i = len(ops) - 2
    while i >= 0 and replays < max_replays and time.monotonic() < deadline:
        candidate = ops[:i] + ops[i + 1:]
        got = attempt(candidate)
        if got is not None:
            best, ops = got, candidate[: got.op_index + 1]
            i = min(i, len(ops) - 1)
        i -= 1
    return best
