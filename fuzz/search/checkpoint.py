"""Checkpoints: the report folder is a campaign's state, so a killed campaign resumes.

After every round the campaign's progress (rounds done, time spent, coverage, the departures
with their counts and readings) is written to `checkpoint.json` beside the report, and each
departure's trace beside it, all atomically. `certify --resume DIR` reads it back and goes
on from the next round with the budget that is left: round seeds are derived from the
campaign seed and the round number, so a resumed campaign plays the rounds an unbroken one
would have played.

This module reads and writes checkpoint files; it must not run campaigns.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamecert.fuzz.atomic_write import write_json
from gamecert.fuzz.findings.trace import trace_document
from gamecert.fuzz.findings.triage import Departure, Reading
from gamecert.fuzz.step.lockstep import Coverage, Finding
from gamecert.schemas import parse_json, read_text_file

FORMAT = "gamecert-checkpoint/1"


class CheckpointError(Exception):
    """A checkpoint is missing or unreadable; the message names the file."""


@dataclass
class Checkpoint:
    game: str
    profile: str
    seed: int
    budget: float | None
    rounds: int
    elapsed: float
    coverage: Coverage
    departures: list[Departure]
    finished: bool = False
    # follow mode: the draws followed so far (ChanceStats.portable), so the statistics of
    # a resumed campaign cover the draws before the kill too; and the steps per example
    chance: list[Any] | None = None
    steps: int | None = None
    profile_doc: dict[str, Any] | None = None  # a season's whole profile (spec.profile_file)


def save_checkpoint(directory: Path, *, game: str, profile: str, seed: int,
                    budget: float | None, rounds: int, elapsed: float, coverage: Coverage,
                    departures: list[Departure], finished: bool,
                    chance: list[Any] | None = None, steps: int | None = None,
                    profile_doc: dict[str, Any] | None = None) -> Path:
    """Write `checkpoint.json` (and the departures' traces under `checkpoint/`)."""
    saved = []
    for dep in departures:
        trace = f"checkpoint/{dep.id}.json"
        if dep.finding.trace is not None:
            write_json(directory / trace, trace_document(dep.finding))
        saved.append({"signature": dep.signature, "primary": dep.primary, "count": dep.count,
                      "consequences": sorted(dep.consequences),
                      "reading": None if dep.reading is None else
                      {"rule": dep.reading.rule, "variant": dep.reading.variant},
                      "finding": {"rules": dep.finding.rules, "kind": dep.finding.kind,
                                  "message": dep.finding.message,
                                  "op_index": dep.finding.op_index,
                                  "related": dep.finding.related,
                                  "violations": [list(v) for v in dep.finding.violations],
                                  "confirmation": dep.finding.confirmation},
                      "trace": trace if dep.finding.trace is not None else None})
    doc = {"format": FORMAT, "game": game, "profile": profile, "seed": seed, "budget": budget,
           "rounds": rounds, "elapsed": round(elapsed, 3), "finished": finished,
           "coverage": {"applied": dict(coverage.applied), "steps": coverage.steps,
                        "examples": coverage.examples, "probes": dict(coverage.probes),
                        "past": dict(coverage.past), "past_steps": coverage.past_steps},
           "departures": saved, "chance": chance, "steps": steps}
    if profile_doc is not None:  # the season it ran: a resume plays it, whatever the file
        doc["profile_doc"] = profile_doc
    path = directory / "checkpoint.json"
    write_json(path, doc)
    return path


def load_checkpoint(directory: Path) -> Checkpoint:
    path = directory / "checkpoint.json"
    if not path.is_file():
        raise CheckpointError(f"{path}: no checkpoint to resume (was the campaign run with "
                              f"--report {directory}?)")
    doc = parse_json(read_text_file(path, CheckpointError), str(path), CheckpointError)
    try:
        if doc["format"] != FORMAT:
            raise CheckpointError(f"{path}: not a gamecert checkpoint")
        cov = doc["coverage"]
        coverage = Coverage(Counter({str(k): int(v) for k, v in cov["applied"].items()}),
                            int(cov["steps"]), int(cov["examples"]),
                            Counter({str(k): int(v) for k, v in
                                     (cov.get("probes") or {}).items()}),
                            Counter({str(k): int(v) for k, v in
                                     (cov.get("past") or {}).items()}),
                            int(cov.get("past_steps") or 0))
        departures = [_departure(d, directory) for d in doc["departures"]]
        chance = doc.get("chance")
        if chance is not None and not isinstance(chance, list):
            raise ValueError("chance is not a list of draws")
        steps = doc.get("steps")
        profile_doc = doc.get("profile_doc")
        if profile_doc is not None and not isinstance(profile_doc, dict):
            raise ValueError("profile_doc is not an object")
        return Checkpoint(str(doc["game"]), str(doc["profile"]), int(doc["seed"]),
                          None if doc["budget"] is None else float(doc["budget"]),
                          int(doc["rounds"]), float(doc["elapsed"]), coverage, departures,
                          bool(doc["finished"]), chance,
                          None if steps is None else int(steps), profile_doc)
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"{path}: malformed checkpoint ({exc!r})") from None


def _departure(d: dict[str, Any], directory: Path) -> Departure:
    f = d["finding"]
    trace = None
    if d.get("trace"):
        saved = parse_json(read_text_file(directory / d["trace"], CheckpointError),
                           str(directory / d["trace"]), CheckpointError)
        saved.pop("finding", None)
        trace = saved
    finding = Finding(list(f["rules"]), str(f["kind"]), str(f["message"]), int(f["op_index"]),
                      trace, list(f["related"]),
                      [(str(r), str(m)) for r, m in f.get("violations", [])],
                      confirmation=str(f.get("confirmation", "")))
    reading = None if d["reading"] is None else Reading(d["reading"]["rule"],
                                                        d["reading"]["variant"])
    return Departure(finding, str(d["signature"]), str(d["primary"]), int(d["count"]),
                     reading, None, set(d["consequences"]))
