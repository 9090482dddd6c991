"""Trace files: what it takes to see a finding again, on any engine.

A trace names the game, profile and seed, the start (a new game or a canonical state), the
operations in order, the rules muted at the time, the earlier games the engine had played
when the finding needs that history (the prelude), and the finding it showed. `replay` runs
it through a fresh lockstep, after the same start-up handshake as a campaign.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.fuzz.engines.capabilities import FULL
from gamecert.fuzz.engines.engine import Engine, InProcessEngine
from gamecert.fuzz.engines.recipes import handshake as engine_handshake
from gamecert.fuzz.step.lockstep import Coverage, Finding, InvalidInput, Lockstep
from gamecert.fuzz.step.play_on import play_seeded
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game, reference_session
from gamecert.schemas import first_error, read_json_file
from gamecert.spec import CatalogueError, Profile
from gamecert.spec.profile_file import resolve_profile

JSON = Any


# a game's steering of a `play_on`: the next action (JSON) where the lockstep stands
Chooser = Callable[[Lockstep, random.Random], JSON]
# how far a `play_on` goes by default: to the end of a game of every game but Flit
PLAY_ON = 1024


class TraceError(Exception):
    """A trace file is unreadable or malformed; the message says where."""


def trace_document(finding: Finding) -> dict[str, Any]:
    doc = dict(finding.trace or {})
    doc["finding"] = {"rules": finding.rules, "kind": finding.kind, "message": finding.message,
                      "op_index": finding.op_index, "related": finding.related}
    if finding.adopted:
        doc["finding"]["adopted"] = finding.adopted
    if finding.confirmation:
        doc["finding"]["confirmation"] = finding.confirmation
    return doc


def load_trace(path: str | Path) -> dict[str, Any]:
    doc = read_json_file(path, TraceError)
    problem = first_error("trace", doc)
    if problem:
        raise TraceError(f"{path}: not a gamecert trace: {problem}")
    return dict(doc)


@dataclass
class ReplayResult:
    finding: Finding | None
    ops_run: int
    expected: list[str]
    expected_kind: str | None = None

    @property
    def reproduced(self) -> bool:
        """The same rule ids, and the same kind where the trace recorded one."""
        if self.finding is None or not set(self.finding.rules) & set(self.expected):
            return False
        return self.expected_kind is None or self.finding.kind == self.expected_kind


def replay(doc: dict[str, Any], engine: Engine, path: str = "trace",
           muted: frozenset[str] | None = None, handshake: bool = True,
           profile: Profile | None = None, choose: Chooser | None = None) -> ReplayResult:
    """Run a trace on `engine` beside the reference, exactly as the campaign ran it: the
    start-up handshake, the earlier games of its prelude (when the finding needed the
    engine's history), then its own operations, with the rules that were muted at the time
    passed over and resynced the same way. The first finding of its own operations stops
    it. `muted` overrides the trace's own list; `profile` overrides the trace's own for the
    reference and the oracles (a variant reading), not for the engine; `choose`, how a
    `play_on` operation picks its actions (the game's own steering; random without it)."""
    game = doc["game"]
    try:
        # what the engine is told: the recorded profile (a season's), whatever the files
        # on disk say now, else the catalogue's of that id
        own = resolve_profile(game, doc["profile"], doc.get("profile_doc"),
                              f"{path}: profile_doc")
        profile = profile or own
        oracles = oracles_for(game)
        ref = reference_game(game)
    except (CatalogueError, KeyError) as exc:
        raise TraceError(f"{path}: {exc}") from None
    recorded = doc.get("finding") or {}
    expected = list(recorded.get("rules", []))
    expected_kind = recorded.get("kind")
    if handshake:
        _, problem = engine_handshake(engine, game, own)  # told its rules, a season's too
        if problem:
            return ReplayResult(Finding(["ENGINE-ALIVE"], "start-up", problem), 0, expected,
                                expected_kind)
    # planned as the campaign planned it: a trace without the list ran with everything
    caps = frozenset(doc["capabilities"]) if "capabilities" in doc else FULL
    for segment in doc.get("prelude") or []:
        ls = Lockstep(ref, engine, profile, oracles, coverage=Coverage(), seed=doc.get("seed"),
                      muted=segment.get("muted") or (), caps=caps, engine_profile=own)
        # a finding or a rejected start ended this earlier game in the campaign too
        with contextlib.suppress(Finding, InvalidInput):
            run_ops(ls, segment["start"], segment["ops"])
    if muted is None:
        muted = frozenset(doc.get("muted") or ())
    ls = Lockstep(ref, engine, profile, oracles, coverage=Coverage(), seed=doc.get("seed"),
                  muted=muted, caps=caps, engine_profile=own)
    counter = [0]
    try:
        run_ops(ls, doc["start"], doc["ops"], counter, choose=choose)
    except Finding as finding:
        return ReplayResult(finding, counter[0], expected, expected_kind)
    except InvalidInput as exc:
        raise TraceError(f"{path}: operation {counter[0]}: {exc}") from None
    return ReplayResult(None, counter[0], expected, expected_kind)


def standing(doc: dict[str, Any]) -> Lockstep | None:
    """A lockstep of the reference beside itself where a trace's own operations leave it
    (its prelude aside: the reference keeps no history), for asking what can be done
    there; None when the trace does not play on the reference."""
    game = doc["game"]
    try:
        profile = resolve_profile(game, doc["profile"], doc.get("profile_doc"))
        caps = frozenset(doc["capabilities"]) if "capabilities" in doc else FULL
        ls = Lockstep(reference_game(game), InProcessEngine(reference_session(game)), profile,
                      oracles_for(game), coverage=Coverage(), seed=doc.get("seed"), caps=caps)
        run_ops(ls, doc["start"], doc["ops"])
    except (Finding, InvalidInput, CatalogueError, KeyError):
        return None
    return ls


def run_ops(ls: Lockstep, start: JSON, ops: list[JSON], counter: list[int] | None = None,
            before: Callable[[Lockstep], None] | None = None,
            choose: Chooser | None = None) -> None:
    """Play a trace's operations; `before(ls)` is called before each one; `choose` steers
    a `play_on` operation (random without it)."""
    ls.start(start)
    for op in ops:
        if ls.dead:  # the engine faulted (a muted finding): the campaign stopped here too
            break
        if before is not None:
            before(ls)
        kind = op["op"]
        if kind == "apply":
            ls.step(op["action"])
        elif kind == "probe":
            ls.probe(op["action"])
        elif kind == "bot_output":
            ls.referee(op["text"])
        elif kind == "reload":
            ls.reload()
        elif kind == "legal":
            ls.compare_legal()
        elif kind == "observe":
            ls.observe()
        elif kind == "play_on":  # asked by the triage only: each step is recorded as played
            play_on(ls, int(op["seed"]), int(op.get("length", PLAY_ON)), choose)
        # "resync", "adopt" and "rewind" record what the lockstep did after a muted
        # finding: it does it again by itself at the same place, given the same muted causes
        if counter is not None:
            counter[0] += 1


def play_on(ls: Lockstep, seed: int, length: int = PLAY_ON,
            choose: Chooser | None = None) -> None:
    """Up to `length` steps from where `ls` stands, each chosen by `choose` (a game's
    steering, seeded) or else the reference's seeded random choice (a draw's outcome at a
    draw): a game played on past a trace's prefix, for the triage to see what a departure
    does further on (`triage.settle_by_play`). Each step is judged and recorded (an
    `apply`) as any other (fuzz.step.play_on)."""
    rng = random.Random(seed)
    play_seeded(ls, rng, length, None if choose is None else lambda: choose(ls, rng))
