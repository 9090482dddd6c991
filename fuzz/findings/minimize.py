"""Shrink a finding's trace, and confirm it, on fresh engines.

Every candidate trace runs on a fresh engine opened from the recipe (a new process for a
command, a new object in process), after the same start-up handshake as a campaign: state
kept inside an engine (a counter, a cache, a leaked handle) cannot carry over from one
attempt to the next and make a shrunk trace that replays clean. A process is reused between
candidates only when the engine's `hello` declares it `stateless` (a new game forgets all),
and only while no earlier game is needed; the final trace is always confirmed on two fresh
engines, so a false declaration cannot produce a trace that does not replay.

A finding that needs the engine's history (it happened on the Nth request of a process)
keeps the earlier games it needs as the trace's prelude. One that no fresh engine shows is
returned as found, unshrunk, and flagged not reproducible.

This module must not run campaigns or write files.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from gamecert.fuzz.engines.engine import Engine
from gamecert.fuzz.engines.recipes import EngineRecipe, as_recipe
from gamecert.fuzz.findings.trace import TraceError, replay
from gamecert.fuzz.step.finding import (
    CONFIRMED,
    MARKERS,
    NONDETERMINISTIC,
    NOT_REPRODUCIBLE,
    SHARED_ENGINE,
    Finding,
)

JSON = Any
# a prelude longer than this is not replayed: confirming it would cost a campaign's time
MAX_PRELUDE_OPS = 20000


class _Opener:
    """Engines for attempts: fresh each time, or one kept while reuse is allowed."""

    def __init__(self, recipe: EngineRecipe, reuse: bool) -> None:
        self.recipe = recipe
        self.reuse = reuse
        self.kept: Engine | None = None

    def get(self, fresh: bool) -> Engine:
        if fresh or not self.reuse:
            return self.recipe.open()
        if self.kept is None:
            self.kept = self.recipe.open()
        return self.kept

    def done(self, engine: Engine) -> None:
        if engine is not self.kept:
            engine.close()

    def close(self) -> None:
        if self.kept is not None:
            self.kept.close()
            self.kept = None


def _strip(ops: Sequence[JSON]) -> list[JSON]:
    """The operations a candidate is made of: resyncs, adoptions and rewinds are redone by
    the replay itself."""
    return [op for op in ops if op.get("op") not in MARKERS]


def _same(a: Finding | None, b: Finding) -> bool:
    return a is not None and a.kind == b.kind and a.rules == b.rules


def minimize(finding: Finding, engine: Engine | EngineRecipe, *,
             prelude: Sequence[dict[str, Any]] = (), reuse: bool = False,
             seconds: float = 10.0, max_replays: int = 300) -> Finding:
    """The finding with the shortest trace found that still shows it on a fresh engine,
    flagged with how it was confirmed (`Finding.confirmation`)."""
    recipe = as_recipe(engine)
    if not finding.trace:  # nothing to replay: it cannot be shown again
        finding.confirmation = NOT_REPRODUCIBLE
        return finding
    doc: dict[str, Any] = {k: v for k, v in finding.trace.items() if k != "finding"}
    rules, kind = set(finding.rules), finding.kind
    start_ops = list(doc["ops"])
    ops = _strip(start_ops[: finding.op_index + 1] if finding.op_index >= 0 else start_ops)
    pre = list(prelude)
    if not recipe.fresh:  # one engine, handed over: replay on it as it is, no handshake
        reuse, pre = True, []
    opener = _Opener(recipe, reuse)
    deadline = time.monotonic() + seconds
    replays = 0

    def attempt(candidate: list[JSON], games: list[dict[str, Any]],
                fresh: bool = False) -> Finding | None:
        nonlocal replays
        replays += 1
        eng = opener.get(fresh and recipe.fresh)
        try:
            result = replay({**doc, "ops": candidate, "prelude": games}, eng,
                            handshake=recipe.fresh)
        except TraceError:
            return None  # dropping that operation made a later one meaningless
        finally:
            opener.done(eng)
        f = result.finding
        if f is None or not set(f.rules) & rules or f.kind != kind:
            return None
        if games and f.trace is not None:
            f.trace["prelude"] = games
        return f

    try:
        # 1. does it show on a fresh engine at all: alone, then after the games before it
        best = attempt(ops, [], fresh=True)
        if best is None and pre and sum(len(g["ops"]) for g in pre) <= MAX_PRELUDE_OPS:
            opener.reuse = False  # it needs the engine's history: never share a process
            best = attempt(ops, pre, fresh=True)
            if best is not None:
                pre = _shrink_prelude(pre, lambda games: attempt(ops, games) is not None,
                                      deadline)
                best = attempt(ops, pre, fresh=True) or best
        else:
            pre = []
        if best is None:
            finding.confirmation = SHARED_ENGINE if not recipe.fresh else NOT_REPRODUCIBLE
            return finding
        base = best
        # 2. drop operations one at a time, from the end
        ops = _strip(best.trace["ops"][: best.op_index + 1]) if best.trace else ops
        i = len(ops) - 2
        while i >= 0 and replays < max_replays and time.monotonic() < deadline:
            candidate = ops[:i] + ops[i + 1:]
            got = attempt(candidate, pre)
            if got is not None and got.trace is not None:
                best, ops = got, _strip(got.trace["ops"][: got.op_index + 1])
                i = min(i, len(ops) - 1)
            i -= 1
        if not recipe.fresh:
            best.confirmation = SHARED_ENGINE
            return best
        # 3. confirm on two fresh engines; a shrink on a shared process that does not
        # hold up falls back to the trace confirmed in step 1
        for shown in (best, base):
            cops = _strip(shown.trace["ops"]) if shown.trace else ops
            first = attempt(cops, pre, fresh=True)
            if first is None or not _same(first, shown):
                continue
            second = attempt(cops, pre, fresh=True)
            first.confirmation = CONFIRMED if _same(second, first) else NONDETERMINISTIC
            return first
        finding.confirmation = NONDETERMINISTIC
        return finding
    finally:
        opener.close()


def _shrink_prelude(games: list[dict[str, Any]], shows: Any, deadline: float) -> list[
        dict[str, Any]]:
    """Drop earlier games the finding does not need: halves first, then one at a time."""
    chunk = max(1, len(games) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        while i < len(games) and time.monotonic() < deadline:
            candidate = games[:i] + games[i + chunk:]
            if shows(candidate):
                games = candidate
            else:
                i += chunk
        chunk //= 2
    return games
