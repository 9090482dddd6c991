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
from collections.abc import Callable, Sequence
from typing import Any

from gamecert.fuzz.engines.capabilities import CHANCE as CHANCE_CAP
from gamecert.fuzz.engines.capabilities import FULL, LOAD_STATE
from gamecert.fuzz.engines.engine import Engine, InProcessEngine
from gamecert.fuzz.engines.recipes import EngineRecipe, as_recipe
from gamecert.fuzz.findings.trace import TraceError, replay, run_ops
from gamecert.fuzz.step.finding import (
    CONFIRMED,
    MARKERS,
    NONDETERMINISTIC,
    NOT_REPRODUCIBLE,
    SHARED_ENGINE,
    Finding,
)
from gamecert.fuzz.step.lockstep import Coverage, InvalidInput, Lockstep
from gamecert.reference_engine import reference_game, reference_session
from gamecert.spec import CatalogueError
from gamecert.spec.profile_file import resolve_profile

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
                fresh: bool = False, start: JSON | None = None) -> Finding | None:
        nonlocal replays
        replays += 1
        eng = opener.get(fresh and recipe.fresh)
        try:
            result = replay({**doc, "ops": candidate, "prelude": games,
                             **({"start": start} if start is not None else {})}, eng,
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
        ops = _strip(best.trace["ops"][: best.op_index + 1]) if best.trace else ops
        # 2. start later: from the reference's state a few operations before the
        # departure, loaded (a departure met deep in a long stretch of play is then a
        # trace of a few operations); the latest start that still shows it
        if not pre and len(ops) > LATE_START_FROM and can_start_late(doc):
            late = _late_start(doc, ops, lambda start, tail: attempt(tail, [], start=start))
            if late is not None:
                best, doc = late, {**doc, "start": late.trace["start"]} if late.trace \
                    else doc
                ops = _strip(best.trace["ops"][: best.op_index + 1]) if best.trace else ops
        # 3. drop operations one at a time, from the end
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
        # 4. confirm on two fresh engines; a shrink on a shared process that does not
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


# a trace longer than this is tried from a later start (step 2 of `minimize`)
LATE_START_FROM = 8


def can_start_late(doc: dict[str, Any]) -> bool:
    """Whether a trace may start from a loaded state instead: the engine loads states and
    lets the reference draw (what a campaign gave it), the profile is the catalogue's (the
    reference replays it alone). Rules passed over (muted) may have resynced the sides
    where the reference alone would not: a later start is kept only where it shows the
    same finding, so a start the resync made wrong is tried and dropped."""
    caps = set(doc.get("capabilities") or FULL)
    return (LOAD_STATE in caps and CHANCE_CAP in caps and not doc.get("profile_doc")
            and not doc.get("prelude"))


def _late_start(doc: dict[str, Any], ops: list[JSON],
                shows: Callable[[JSON, list[JSON]], Finding | None]) -> Finding | None:
    """The finding shown from the latest start tried: the reference's state before
    operation j, loaded, then operations j.. (j from the last operation back, 1, 2, 4 ...
    operations further each time); None when no later start shows it."""
    states = reference_states(doc, ops)
    if states is None:
        return None
    n, back = len(ops), 1
    while back < n:
        j = n - back
        got = shows({"kind": "state", "state": states[j]}, ops[j:])
        if got is not None:
            return got
        back *= 2
    return None


def reference_states(doc: dict[str, Any], ops: list[JSON]) -> list[JSON] | None:
    """The reference's canonical state before each of `ops`, the trace played on the
    reference alone (no oracle asked); None if the reference cannot play it."""
    game = doc["game"]
    try:
        profile = resolve_profile(game, doc["profile"], None)
        ls = Lockstep(reference_game(game), InProcessEngine(reference_session(game)),
                      profile, [], coverage=Coverage(), seed=doc.get("seed"))
        states: list[JSON] = []
        run_ops(ls, doc["start"], ops, before=lambda at: states.append(at.ref_json))
    except (Finding, InvalidInput, CatalogueError, KeyError):
        return None
    return states if len(states) == len(ops) else None


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
