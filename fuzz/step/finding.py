"""What the lockstep reports: a `Finding` (the rules, the kind, the message, the trace), the
`Coverage` it counts, the harness's own rules, and the names of a finding's causes.

Records and small pure functions only: nothing here drives an engine or asks an oracle
(fuzz.step.lockstep does both). Everything past the lockstep (triage, traces, reports)
reads these.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gamecert.oracles.base import (
    aliases_of,
    cause_of,
)

JSON = Any
# What the lockstep does by itself after a departure, recorded in the trace for a reader:
# a replay with the same muted causes does it again at the same place
MARKERS = ("resync", "adopt", "rewind")

# Checks of the engine as a program rather than of a game rule; they sit beside the rule ids
# in every certificate.
HARNESS_RULES = {
    "ENGINE-ALIVE": "The engine answers every request in time, with one well-formed reply, "
                    "and does not crash.",
    "ENGINE-AGREES": "The engine's states, events, legal sets and referee decisions equal the "
                     "reference's (a difference no rule oracle explains).",
    "ENGINE-LOAD-STATE": "The engine loads any valid canonical state and observes it unchanged.",
    "ENGINE-STATE-ROUNDTRIP": "Saving a state (observe) and loading it back changes nothing.",
}


CONFIRMED = "confirmed"  # replayed alone on a fresh engine, twice, to the same finding
SHARED_ENGINE = "shared-engine"  # replayed on the engine the caller handed over, not fresh
NOT_REPRODUCIBLE = "not reproducible"  # a fresh engine did not show it: trace as found
NONDETERMINISTIC = "nondeterministic"  # two fresh replays of one trace ended differently


UNREPORTED = ("the rules call for a draw here and the engine reported none (follow mode: "
              "every draw is reported as a {\"chance\": ...} event); ")


class InvalidInput(Exception):
    """The harness's own input is not valid for the reference (a generator bug or a bad
    trace); not a finding about the engine."""


@dataclass
class Finding(Exception):
    rules: list[str]
    kind: str
    message: str
    op_index: int = -1
    trace: dict[str, Any] | None = None
    related: list[str] = field(default_factory=list)
    violations: list[tuple[str, str]] = field(default_factory=list)  # (rule, message) each
    # raised after a muted finding in the same example: its position may already be a
    # consequence of that earlier, known cause
    tainted: bool = False
    # The states at the failing operation, for pictures: the reference's canonical state
    # after it (before it, for a refusal or a probe), and the engine's when it gave one.
    expected: JSON = None
    got: JSON = None
    # how the trace was confirmed: CONFIRMED, SHARED_ENGINE, NOT_REPRODUCIBLE or
    # NONDETERMINISTIC (fuzz.findings.minimize); empty until it is
    confirmation: str = ""
    # the operations (before this finding's) after which the reference took the engine's
    # state: the finding was met past earlier departures, each judged on its own
    adopted: list[int] = field(default_factory=list)
    # how many more times the same cause was passed over in the same example (counted, no
    # trace kept for each)
    repeats: int = 0

    def __str__(self) -> str:
        return f"[{', '.join(self.rules)}] {self.kind}: {self.message}"

    @property
    def causes(self) -> set[str]:
        """What a campaign mutes after this finding (`cause_keys`)."""
        return cause_keys(self.rules, self.violations)

    def __hash__(self) -> int:
        return id(self)


@dataclass
class Coverage:
    """How often each rule's oracle applied (answered OK or violation)."""

    applied: Counter[str] = field(default_factory=Counter)
    steps: int = 0
    examples: int = 0
    # one-rule probes offered per rule (each built to break that rule and no other)
    probes: Counter[str] = field(default_factory=Counter)
    # what was exercised in examples past their first departure (the depth an engine
    # with an early, systematic departure still gets): checks per rule, and steps
    past: Counter[str] = field(default_factory=Counter)
    past_steps: int = 0

    def merge(self, other: Coverage) -> None:
        self.applied.update(other.applied)
        self.steps += other.steps
        self.examples += other.examples
        self.probes.update(other.probes)
        self.past.update(other.past)
        self.past_steps += other.past_steps


def canon(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def violation_keys(rule: str, message: str) -> set[str]:
    """The names of one violation's cause: `RULE|cause` where it names one of its rule's
    departures (`oracles.base.cause`), with the other names it goes by; the rule alone
    where it names none ("rule", as an alias, is that too)."""
    tag = cause_of(message)
    if tag is None:
        return {rule}
    return {f"{rule}|{tag}", *(rule if a == "rule" else f"{rule}|{a}"
                               for a in aliases_of(message))}


def cause_keys(rules: Iterable[str], violations: Iterable[tuple[str, str]]) -> set[str]:
    """The causes of a finding's violations, under every name they go by (what a campaign
    mutes after it). Muting a cause passes over that departure only; the rule's other
    departures are still found."""
    keys = {k for r, m in violations for k in violation_keys(r, m)}
    return keys or set(rules)


def all_known(rules: Iterable[str], violations: Iterable[tuple[str, str]],
              muted: set[str] | frozenset[str]) -> bool:
    """Whether every violation's cause is passed over (under any of its names); with no
    violation, every rule."""
    listed = list(violations)
    if not listed:
        return set(rules) <= muted
    return all(not violation_keys(r, m).isdisjoint(muted) for r, m in listed)


def finding_kind(bad: list[tuple[str, str]]) -> str:
    """A finding's kind: a rule broken, or a difference no rule explains."""
    return "violation" if any(r != "ENGINE-AGREES" for r, _ in bad) else "divergence"


def event_rules(events: Iterable[JSON]) -> list[str]:
    return sorted({e["rule"] for e in events if isinstance(e, dict) and "rule" in e})


def diff(want: JSON, got: JSON) -> str:
    """A short description of how two canonical documents differ."""
    if not isinstance(want, dict) or not isinstance(got, dict):
        return f"expected {canon(want)[:200]}, got {canon(got)[:200]}"
    parts = []
    for key in sorted(set(want) | set(got)):
        a, b = want.get(key, "<missing>"), got.get(key, "<missing>")
        if a == b:
            continue
        if isinstance(a, str) and isinstance(b, str) and len(a) == len(b) and len(a) > 40:
            idx = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
            parts.append(f"{key}: {len(idx)} positions differ, first at index {idx[0]} "
                         f"(reference {a[idx[0]]!r}, engine {b[idx[0]]!r})")
        else:
            parts.append(f"{key}: reference {canon(a)[:120]}, engine {canon(b)[:120]}")
    return "; ".join(parts) or "equal"
