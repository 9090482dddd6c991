"""Trace files: what it takes to see a finding again, on any engine.

A trace names the game, profile and seed, the start (a new game or a canonical state), the
operations in order, and the finding it showed. `replay` runs it through a fresh lockstep.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.fuzz.engines import Engine
from gamecert.fuzz.lockstep import Coverage, Finding, InvalidInput, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game
from gamecert.schemas import first_error, read_json_file
from gamecert.spec import CatalogueError, Profile, load_catalogue

JSON = Any


class TraceError(Exception):
    """A trace file is unreadable or malformed; the message says where."""


def trace_document(finding: Finding) -> dict[str, Any]:
    doc = dict(finding.trace or {})
    doc["finding"] = {"rules": finding.rules, "kind": finding.kind, "message": finding.message,
                      "op_index": finding.op_index, "related": finding.related}
    return doc


def save_trace(finding: Finding, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")  # whole or nothing, even if the run is killed
    tmp.write_text(json.dumps(trace_document(finding), indent=1) + "\n", "utf-8")
    tmp.replace(path)


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

    @property
    def reproduced(self) -> bool:
        return self.finding is not None and bool(set(self.finding.rules) & set(self.expected))


def replay(doc: dict[str, Any], engine: Engine, path: str = "trace",
           muted: frozenset[str] = frozenset(), profile: Profile | None = None) -> ReplayResult:
    """Run a trace on `engine` beside the reference; the first finding stops it (findings on
    `muted` rules are passed over). `profile` overrides the trace's own for the reference
    and the oracles (a variant reading), not for the engine."""
    game = doc["game"]
    try:
        profile = profile or load_catalogue(game).profile(doc["profile"])
        oracles = oracles_for(game)
        ref = reference_game(game)
    except (CatalogueError, KeyError) as exc:
        raise TraceError(f"{path}: {exc}") from None
    ls = Lockstep(ref, engine, profile, oracles, coverage=Coverage(), seed=doc.get("seed"),
                  muted=muted)
    expected = list(doc.get("finding", {}).get("rules", []))
    done = 0
    try:
        ls.start(doc["start"])
        for op in doc["ops"]:
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
            done += 1
    except Finding as finding:
        return ReplayResult(finding, done, expected)
    except InvalidInput as exc:
        raise TraceError(f"{path}: operation {done}: {exc}") from None
    return ReplayResult(None, done, expected)
