"""Drive an engine under test and the reference in lockstep, and judge every step.

`Lockstep` is the core the Hypothesis state machine, `replay` and the benchmarks share. Each
operation feeds the same input to both engines, runs every oracle on what the engine under
test did, compares canonical JSON, and raises a `Finding` naming the rules involved. Every
operation is recorded, so a finding carries the trace that reproduces it.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from gamecert.fuzz.engines import Engine, EngineFault, Refused
from gamecert.oracles.base import NA, OK, Oracle, Transition, Verdict, Violation
from gamecert.reference_engine.contract import (
    CHANCE,
    TERMINAL,
    BadState,
    Game,
    IllegalAction,
    legal_json,
)
from gamecert.spec import Profile

JSON = Any

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
    # NONDETERMINISTIC (fuzz.minimize); empty until it is
    confirmation: str = ""

    def __str__(self) -> str:
        return f"[{', '.join(self.rules)}] {self.kind}: {self.message}"

    def __hash__(self) -> int:
        return id(self)


@dataclass
class Coverage:
    """How often each rule's oracle applied (answered OK or violation)."""

    applied: Counter[str] = field(default_factory=Counter)
    steps: int = 0
    examples: int = 0

    def merge(self, other: Coverage) -> None:
        self.applied.update(other.applied)
        self.steps += other.steps
        self.examples += other.examples


def canon(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class Lockstep:
    def __init__(self, game: Game[Any, Any], engine: Engine, profile: Profile,
                 oracles: Iterable[Oracle], *, coverage: Coverage | None = None,
                 muted: Iterable[str] = (), seed: int | None = None,
                 on_finding: Callable[[Finding], None] | None = None,
                 deadline: float | None = None,
                 on_step: Callable[[], None] | None = None,
                 stop: threading.Event | None = None) -> None:
        self.game = game
        self.engine = engine
        self.profile = profile
        self.oracles = list(oracles)
        # (rule, hook) pairs: the step loop runs them thousands of times a second
        self.state_hooks = [(o.rule, o.state) for o in self.oracles if o.state]
        self.check_hooks = [(o.rule, o.check) for o in self.oracles if o.check]
        self.judge_hooks = [(o.rule, o.judge) for o in self.oracles if o.judge]
        self.referee_hooks = [(o.rule, o.referee) for o in self.oracles if o.referee]
        self.listed_hooks = [(o.rule, o.listed) for o in self.oracles if o.listed]
        self.coverage = coverage if coverage is not None else Coverage()
        self.muted = set(muted)
        self.seed = seed
        self.ref: Any = None
        self.ref_json: JSON = None
        self.start_spec: JSON = None
        self.ops: list[JSON] = []
        self.muted_findings: list[Finding] = []
        self.example_muted = 0  # muted findings met in the current example
        self.on_finding = on_finding
        self.dead = False
        # A campaign's budget is a promise: past `deadline` (time.monotonic()) the lockstep
        # stops asking the engine anything, so the round it is in ends at once.
        self.deadline = deadline
        self.on_step = on_step
        self.stop = stop  # set from outside (Ctrl-C): end the example as at the deadline

    # --- status --------------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self.game.current(self.ref)

    @property
    def live(self) -> bool:
        if (self.deadline is not None and time.monotonic() > self.deadline) or (
                self.stop is not None and self.stop.is_set()):
            self.dead = True
        return not self.dead and self.ref is not None and self.game.current(self.ref) != TERMINAL

    # --- verdicts ------------------------------------------------------------------------
    def _count(self, rule: str, verdict: Verdict, bad: list[tuple[str, str]]) -> None:
        if verdict is not NA:
            self.coverage.applied[rule] += 1
            if verdict is not OK:
                bad.append((rule, str(verdict)))

    def _state_checks(self, state: JSON, bad: list[tuple[str, str]]) -> None:
        profile = self.profile
        try:  # the common case: every oracle reads the state; one call each, no wrapper
            verdicts = [(rule, hook(state, profile)) for rule, hook in self.state_hooks]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # a state some oracle cannot even read: find out which, one at a time
            verdicts = [(rule, _guarded(hook, state, profile))
                        for rule, hook in self.state_hooks]
        self._tally(verdicts, bad)

    def _tally(self, verdicts: list[tuple[str, Verdict]], bad: list[tuple[str, str]]) -> None:
        """Count each applicable verdict for its rule; collect the violations in `bad`."""
        applied = self.coverage.applied
        for rule, verdict in verdicts:
            if verdict is not NA:
                applied[rule] += 1
                if verdict is not OK:
                    bad.append((rule, str(verdict)))

    def _judge(self, state: JSON, action: JSON, accepted: bool,
               bad: list[tuple[str, str]]) -> None:
        profile = self.profile
        for rule, judge in self.judge_hooks:
            self._count(rule, _guarded(judge, state, action, accepted, profile), bad)

    def _listed(self, state: JSON, action: JSON, listed: bool,
                bad: list[tuple[str, str]]) -> None:
        """A legal listing that includes or leaves out `action`, where the two engines differ:
        judged by the `listed` hooks of a game that has them, else as acceptance."""
        if not self.listed_hooks:
            self._judge(state, action, listed, bad)
            return
        for rule, hook in self.listed_hooks:
            self._count(rule, _guarded(hook, state, action, listed, self.profile), bad)

    def _fail(self, bad: list[tuple[str, str]], kind: str, fallback: str,
              fallback_rule: str = "ENGINE-AGREES", related: Iterable[str] = (), *,
              expected: JSON = None, got: JSON = None) -> bool:
        """Raise a finding for `bad` (or the fallback); return False if all of it is muted.
        `expected` and `got` are the reference's and the engine's states at the failure."""
        if bad:
            rules = sorted({r for r, _ in bad})
            message = "; ".join(f"{r}: {m}" for r, m in bad)
        else:
            rules, message = [fallback_rule], fallback
        finding = Finding(rules, kind, message, self._last_op(), self.trace(),
                          sorted(set(related)), list(bad), tainted=self.example_muted > 0,
                          expected=expected, got=got)
        if set(rules) <= self.muted:
            self.muted_findings.append(finding)
            self.example_muted += 1
            return False
        if self.on_finding:
            self.on_finding(finding)
        raise finding

    def _ask(self, what: str, call: Callable[..., Any], *args: Any,
             rule: str = "ENGINE-AGREES") -> tuple[bool, Any]:
        """Call the engine; a refusal or a fault becomes a finding and (False, None)."""
        try:
            return True, call(*args)
        except Refused as exc:
            self._fail([], "refused", f"{what} refused: {exc}", rule, expected=self.ref_json)
        except EngineFault as exc:
            self._fault(exc)
        return False, None

    def _fault(self, fault: EngineFault) -> None:
        self.dead = True  # its process is gone or unreliable: this example stops here
        self._fail([], fault.kind, fault.message, "ENGINE-ALIVE", expected=self.ref_json)

    # --- operations ----------------------------------------------------------------------
    def start(self, start: JSON) -> None:
        """Begin an example: `{"kind": "new_game"}` or `{"kind": "state", "state": ...}`."""
        self.start_spec = start
        self.ops = []
        self.example_muted = 0
        if self.dead or (self.deadline is not None and time.monotonic() > self.deadline) or (
                self.stop is not None and self.stop.is_set()):
            self.dead = True  # out of budget (or a finding ended the round): ask nothing
            return
        self.coverage.examples += 1
        ref0 = self.game.initial(self.profile, self.seed)
        ref0_json = self.game.observe(ref0)
        try:
            eng0 = self.engine.new_game(self.profile.id, self.seed)
        except Refused as exc:
            self._fail([], "refused-new-game", f"new_game refused: {exc}", expected=ref0_json)
            eng0 = ref0_json
        except EngineFault as exc:
            self._fault(exc)
            return
        bad: list[tuple[str, str]] = []
        self._state_checks(eng0, bad)
        if bad or eng0 != ref0_json:
            self._fail(bad, "divergence", "the engine's new game differs from the reference's: "
                       + _diff(ref0_json, eng0), expected=ref0_json, got=eng0)
        self.ref, self.ref_json = ref0, ref0_json
        if start.get("kind") == "state":
            self._load(start["state"])

    def _load(self, state: JSON) -> None:
        try:
            ref = self.game.load(self.profile, state)
        except BadState as exc:
            raise InvalidInput(f"start state rejected by the reference: {exc}") from None
        ref_json = self.game.observe(ref)
        self.coverage.applied["ENGINE-LOAD-STATE"] += 1
        try:
            eng = self.engine.load_state(state)
        except Refused as exc:
            self._fail([], "refused-load", f"load_state refused a valid state: {exc}",
                       "ENGINE-LOAD-STATE", expected=ref_json)
            return
        except EngineFault as exc:
            self._fault(exc)
            return
        self.ref, self.ref_json = ref, ref_json
        if eng != ref_json:
            self._fail([], "divergence", "state after load_state differs: "
                       + _diff(ref_json, eng), "ENGINE-LOAD-STATE", expected=ref_json, got=eng)

    def _last_op(self) -> int:
        """The index of the operation being judged (a resync it caused comes after it)."""
        i = len(self.ops) - 1
        while i >= 0 and self.ops[i].get("op") == "resync":
            i -= 1
        return i

    def _resync(self) -> None:
        """After a muted finding, put the engine back on the reference's state. Recorded
        in the trace: a replay with the same muted rules resyncs at the same place, and a
        reader sees the extra load_state the engine was sent."""
        self.ops.append({"op": "resync"})
        try:
            self.engine.load_state(self.ref_json)
        except (Refused, EngineFault):
            self.dead = True

    def step(self, action: JSON) -> list[JSON]:
        """Apply an action the reference accepts; returns the reference's events."""
        before = self.ref_json
        try:
            ref_action = self.game.action_from_json(self.ref, action)
            ref_next, ref_events = self.game.apply(self.ref, ref_action)
        except IllegalAction as exc:
            raise InvalidInput(f"action {action} is illegal for the reference: {exc}") from None
        self.ops.append({"op": "apply", "action": action})
        self.coverage.steps += 1
        if self.on_step is not None:
            self.on_step()
        ref_after = self.game.observe(ref_next)
        bad: list[tuple[str, str]] = []
        try:
            eng_after, eng_events = self.engine.apply(action)
        except Refused as exc:
            self._judge(before, action, False, bad)
            self._fail(bad, "refused-legal", f"engine refused legal action {canon(action)}: "
                       f"{exc}", related=_event_rules(ref_events), expected=before)
            self._advance(ref_next, ref_after, resync=True)
            return list(ref_events)
        except EngineFault as exc:
            self._fault(exc)
            return list(ref_events)
        # No judges here: the reference accepted this action too, so a judge could only
        # repeat the reference's decision. Judges speak on refusals, probes and legal sets.
        diverged = eng_after != ref_after or eng_events != ref_events
        # An oracle is a function of the JSON it is shown. When the engine's state and events
        # equal the reference's, the reference's own objects get the very same verdicts, and
        # this step's `after` is then the next step's `before` (the same object): oracles
        # that analyse a state (a board's features) reuse that analysis.
        seen, seen_events = (eng_after, eng_events) if diverged else (ref_after, ref_events)
        transition = Transition(before, action, seen, seen_events)
        profile = self.profile
        try:
            verdicts = [(rule, check(transition, profile)) for rule, check in self.check_hooks]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # a reply some oracle cannot even read: find out which, one at a time
            verdicts = [(rule, _guarded(check, transition, profile))
                        for rule, check in self.check_hooks]
        self._tally(verdicts, bad)
        self._state_checks(seen, bad)
        if bad or diverged:
            detail = _diff(ref_after, eng_after) if eng_after != ref_after else (
                f"events differ: reference {canon(ref_events)[:300]}, "
                f"engine {canon(eng_events)[:300]}")
            self._fail(bad, "violation" if bad else "divergence",
                       f"after {canon(action)}: {detail}", related=_event_rules(ref_events),
                       expected=ref_after, got=eng_after)
        self._advance(ref_next, ref_after, resync=diverged)
        return list(ref_events)

    def _advance(self, ref_next: Any, ref_after: JSON, resync: bool) -> None:
        self.ref, self.ref_json = ref_next, ref_after
        if resync:
            self._resync()

    def probe(self, action: JSON) -> bool:
        """Offer an action the reference refuses; the engine must refuse it too. Returns
        False (and does nothing) when the reference accepts it."""
        try:
            self.game.apply(self.ref, self.game.action_from_json(self.ref, action))
            return False
        except IllegalAction:
            pass
        before = self.ref_json
        self.ops.append({"op": "probe", "action": action})
        bad: list[tuple[str, str]] = []
        try:
            reply = self.engine.apply(action)
        except Refused:
            self._judge(before, action, False, bad)
            if bad:  # an oracle says the action was legal after all
                self._fail(bad, "violation", f"refused {canon(action)}", expected=before)
            self._check_unchanged(before)
            return True
        except EngineFault as exc:
            self._fault(exc)
            return True
        self._judge(before, action, True, bad)
        self._resync()
        self._fail(bad, "accepted-illegal", f"engine accepted illegal action {canon(action)}",
                   expected=before, got=_state_of(reply))
        return True

    def _check_unchanged(self, before: JSON) -> None:
        try:
            now = self.engine.observe()
        except Refused as exc:
            self._fail([], "fault", f"observe failed after a refusal: {exc}", "ENGINE-ALIVE",
                       expected=before)
            return
        except EngineFault as exc:  # its process is gone: nothing more is asked of it
            self._fault(exc)
            return
        if now != before:
            self._resync()
            self._fail([], "divergence", "a refused action changed the engine's state: "
                       + _diff(before, now), expected=before, got=now)

    def referee(self, text: str) -> None:
        """Ask both referees what a bot's raw reply amounts to."""
        who = self.game.current(self.ref)
        if who in (CHANCE, TERMINAL):
            return
        want = self.game.action_to_json(self.ref, self.game.referee(self.ref, text))
        self.ops.append({"op": "bot_output", "text": text})
        bad: list[tuple[str, str]] = []
        ok, got = self._ask(f"bot_output {text!r}", self.engine.bot_output, text)
        if not ok:
            return
        for rule, hook in self.referee_hooks:
            self._count(rule, _guarded(hook, self.ref_json, text, got, self.profile), bad)
        if bad or got != want:
            self._fail(bad, "violation" if bad else "divergence",
                       f"bot output {text!r}: reference makes it {canon(want)}, "
                       f"engine {canon(got)}", expected=self.ref_json)

    def observe(self) -> None:
        """The engine's observed state must equal the reference's."""
        if self.dead or self.ref is None:
            return
        self.ops.append({"op": "observe"})
        ok, now = self._ask("observe", self.engine.observe)
        if ok and now != self.ref_json:
            self._resync()
            self._fail([], "divergence", "observe differs from the reference: "
                       + _diff(self.ref_json, now), expected=self.ref_json, got=now)

    def reload(self) -> None:
        """Save the engine's state and load it back: nothing may change."""
        self.ops.append({"op": "reload"})
        self.coverage.applied["ENGINE-STATE-ROUNDTRIP"] += 1
        try:
            saved = self.engine.observe()
            again = self.engine.load_state(saved)
        except Refused as exc:
            self._fail([], "refused-load", f"the engine refused its own state: {exc}",
                       "ENGINE-STATE-ROUNDTRIP", expected=self.ref_json)
            self._resync()
            return
        except EngineFault as exc:
            self._fault(exc)
            return
        if saved != self.ref_json:
            self._resync()
            self._fail([], "divergence", "observe differs from the reference: "
                       + _diff(self.ref_json, saved), expected=self.ref_json, got=saved)
        elif again != saved:
            self._resync()
            self._fail([], "divergence", "load_state(observe()) changed the state: "
                       + _diff(saved, again), "ENGINE-STATE-ROUNDTRIP", expected=saved, got=again)

    def compare_legal(self) -> None:
        """The engine's legal set (or chance outcomes) must equal the reference's."""
        self.ops.append({"op": "legal"})
        state = self.ref_json
        want = legal_json(self.game, self.ref)
        ok, got = self._ask("legal", self.engine.legal)
        if not ok or got == want:  # the common case, and far cheaper than comparing as sets
            return
        bad: list[tuple[str, str]] = []
        if not isinstance(got, dict):
            self._fail([], "protocol", f"legal reply is not an object: {str(got)[:200]}",
                       "ENGINE-ALIVE", expected=state)
            return
        if "outcomes" in want:
            w = {canon(o["action"]): o["p"] for o in want["outcomes"]}
            try:
                g = {canon(o["action"]): str(o["p"]) for o in got.get("outcomes") or []}
            except (KeyError, TypeError):
                self._fail([], "protocol", "legal outcomes are not {action, p} objects",
                           "ENGINE-ALIVE", expected=state)
                return
            for key in w.keys() - g.keys():
                self._judge(state, json.loads(key), False, bad)
            for key in g.keys() - w.keys():
                self._judge(state, json.loads(key), True, bad)
            same = w == g
        else:
            wa = {canon(a) for a in want["actions"]}
            try:
                ga = {canon(a) for a in got.get("actions") or []}
            except TypeError:
                ga = set()
            for key in wa - ga:
                self._listed(state, json.loads(key), False, bad)
            for key in ga - wa:
                self._listed(state, json.loads(key), True, bad)
            same = wa == ga and got.get("to_move") == want["to_move"]
        if bad or not same:
            self._fail(bad, "violation" if bad else "divergence",
                       "legal sets differ from the reference's", expected=state)

    # --- traces --------------------------------------------------------------------------
    def trace(self) -> dict[str, Any]:
        doc = {"format": "gamecert-trace/1", "game": self.game.name,
               "profile": self.profile.id, "seed": self.seed, "start": self.start_spec,
               "ops": list(self.ops)}
        if self.muted:  # a replay must pass over the same findings, and resync the same way
            doc["muted"] = sorted(self.muted)
        return doc

    def segment(self) -> dict[str, Any]:
        """This example as one earlier game of a trace's prelude."""
        return {"start": self.start_spec, "ops": list(self.ops), "muted": sorted(self.muted)}


def _guarded(hook: Callable[..., Verdict], *args: Any) -> Verdict:
    """An oracle's verdict; an engine reply too malformed to read is itself a violation."""
    try:
        return hook(*args)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return Violation(f"cannot read the engine's state, events or action: {exc!r}")


def _state_of(reply: Any) -> JSON:
    """The state in an engine's apply reply (state, events), or None."""
    return reply[0] if isinstance(reply, tuple) and len(reply) == 2 else None


def _event_rules(events: Iterable[JSON]) -> list[str]:
    return sorted({e["rule"] for e in events if isinstance(e, dict) and "rule" in e})


def _diff(want: JSON, got: JSON) -> str:
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
