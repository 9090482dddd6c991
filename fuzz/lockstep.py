"""Drive an engine under test and the reference in lockstep, and judge every step.

`Lockstep` is the core the Hypothesis state machine, `replay` and the benchmarks share. Each
operation feeds the same input to both engines, runs every oracle on what the engine under
test did, compares canonical JSON, and raises a `Finding` naming the rules involved. Every
operation is recorded, so a finding carries the trace that reproduces it.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

from gamecert.fuzz.blame import Blame, Explanation, blame_for, tag
from gamecert.fuzz.capabilities import CHANCE as CHANCE_CAP
from gamecert.fuzz.capabilities import (
    FULL,
    LOAD_STATE,
    NO_EVENTS,
    UNDO,
    chance_rule,
    is_chance_report,
)
from gamecert.fuzz.engines import Engine, EngineFault, Refused
from gamecert.fuzz.hook_plan import plan_for
from gamecert.oracles.base import (
    NA,
    OK,
    CheckFn,
    Oracle,
    Transition,
    Verdict,
    Violation,
    aliases_of,
    alternatives,
    ambiguous,
    cause,
    cause_of,
    plain,
)
from gamecert.reference_engine.contract import (
    CHANCE,
    TERMINAL,
    BadState,
    Game,
    IllegalAction,
    legal_json,
)
from gamecert.spec import Profile
from gamecert.spec.profile_file import record_of

try:  # what Counter.update runs on an iterable, in C: counts a list with no Python frame
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - every CPython since 3.2 has it
    def _count_elements(mapping: Counter[str], iterable: Iterable[str]) -> None:
        mapping.update(iterable)

JSON = Any
# A step for `Lockstep._judge_looked` to judge in full: the step as the oracles see it, the
# draws followed in it, the reference's state and events after it, the engine's state after
# it, and the step's operation index
Waiting = tuple[Transition, list[JSON], JSON, list[JSON], JSON, int]
NO_DRAWS: list[JSON] = []  # a waiting step's draws (none: a step that follows one is judged
# at once); never changed
COUNTED_KEPT = 4096  # step patterns remembered per hook plan (_count_step, the lane)
# Steps whose engine agreed with the reference judged together, at most this many at once,
# by a lockstep made with `defer` (a campaign's, a benchmark's): see `Lockstep.finish`.
AGREED_BATCH = 128
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
    # NONDETERMINISTIC (fuzz.minimize); empty until it is
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


class Lockstep:
    def __init__(self, game: Game[Any, Any], engine: Engine, profile: Profile,
                 oracles: Iterable[Oracle], *, coverage: Coverage | None = None,
                 muted: Iterable[str] = (), seed: int | None = None,
                 on_finding: Callable[[Finding], None] | None = None,
                 deadline: float | None = None,
                 on_step: Callable[[], None] | None = None,
                 stop: threading.Event | None = None,
                 caps: frozenset[str] | None = None, chance_stats: Any = None,
                 defer: int = 0, go_on: bool = False,
                 engine_profile: Profile | None = None) -> None:
        self.game = game
        # the profile the engine is told (its rules travel with new_game); the reference
        # and the oracles may read another (a replay under a variant reading)
        self.engine_profile = profile if engine_profile is None else engine_profile
        # What the engine declared (fuzz.capabilities); None: everything, today's protocol.
        # Without `chance` it draws for itself and reports its draws: the reference follows
        # them (follow mode). Without `load_state` nothing is loaded: no resync either.
        self.caps = FULL if caps is None else caps
        self.follow = CHANCE_CAP not in self.caps
        self.events_compared = NO_EVENTS not in self.caps
        self.can_load = LOAD_STATE in self.caps
        self.chance_stats = chance_stats  # fuzz.chance_stats.ChanceStats: followed draws
        self.example_seed = seed
        self.draws = 0  # draws followed in this example (the key of a statistics sample)
        self.blind: set[str] = set()  # oracles that cannot read a step with draws in it
        self.unreported = False  # the last followed reply lacked a draw the rules call for
        self.engine = engine
        self.profile = profile
        # the oracles' hooks sorted for the step loop, shared by every lockstep of the same
        # game, profile and oracles (`fuzz.hook_plan`), and so are the memos it fills
        plan = plan_for(game.name, profile, tuple(oracles))
        self.plan = plan
        self.oracles = plan.oracles
        # (rule, hook) pairs: the step loop runs them thousands of times a second
        self.state_rules, self.state_fns = plan.state_rules, plan.state_fns
        self.check_hooks = plan.check_hooks
        # the game's shared looks (`STATE_PREJUDGE`, `PREJUDGE`) and where the state look
        # answers (the step look's places come with each step's checks, `checks_for`)
        self.state_prejudge, self.state_where = plan.state_prejudge, plan.state_where
        self.prejudge = plan.prejudge
        # A check that says `on` which kinds of step it judges is asked only at those (it
        # would answer NA at any other): the game's `action_kind` names a step's kind.
        self.action_kind = plan.action_kind
        self.counted = plan.counted  # _count_step's patterns
        # What a step counts, by the identities of its rules list and of the looks'
        # answers (with no state look, of the state hooks' verdicts): a game whose looks
        # return the same tuple for the same answers has most steps counted with one dict
        # lookup. Only entries whose every check's verdict came from the step look's tuple
        # (and every state hook's from the state look's), none a violation, are kept.
        self.lane = plan.lane
        # Up to `defer` steps on which the engine agreed with the reference, their oracles
        # not yet asked (`finish`). 0: every step judged as it is played.
        self.defer = defer if plan.lane is not None else 0
        # a step may wait by the short way (`step`): it waits, follows no draw, and the
        # engine's events are compared as they are
        self.lean = bool(self.defer) and not self.follow and self.events_compared
        # (the steps as the oracles see them, each the reference's own state and events;
        # their operation indexes; the reference's events, with any chance reports)
        self.pending: list[Transition] = []
        self.pending_at: list[int] = []
        self.pending_events: list[list[JSON]] = []
        self.judge_hooks, self.referee_hooks = plan.judge_hooks, plan.referee_hooks
        self.listed_hooks, self.weights_hooks = plan.listed_hooks, plan.weights_hooks
        self.coverage = coverage if coverage is not None else Coverage()
        self.muted = set(muted)
        self.seed = seed
        self.ref: Any = None
        self.ref_json: JSON = None
        # The reference's canonical JSON after a step is built from the one before where the
        # game can (`observe_next`: the parts the step left alone are shared, not rebuilt);
        # `json_of` is the state `ref_json` observes, so only a true pair is built on.
        self.observe_next = getattr(game, "observe_next", None)
        self.json_of: Any = None
        self.start_spec: JSON = None
        self.ops: list[JSON] = []
        self.muted_findings: list[Finding] = []
        # findings (muted or new) met since the two sides were last brought together: a
        # finding raised meanwhile may stand in a position an earlier cause made wrong
        self.example_muted = 0
        # A campaign's lockstep goes on past a new finding too (`go_on`): the finding is
        # reported (`on_finding`), its causes are passed over for the rest of the example,
        # the two sides are brought together again (`_settle`) and play goes on, so the
        # next, different departure is found in the same game. A replay stops at its first.
        self.go_on = go_on
        self.found: list[Finding] = []  # the new findings of this example, in order
        self.adopted: list[int] = []  # operations after which the reference took the
        # engine's state (an engine without load_state), in this example
        # Oracles whose check reads the step's events: on a step whose state differs, an
        # engine without events of its own (`no_events`) is judged by their state-only
        # form (`Oracle.bare`) or not at all; the reference's events describe another state
        self.event_checks: dict[int, CheckFn | None] = {
            id(o.check): o.bare for o in self.oracles if o.check is not None and o.reads_events}
        self._blame: Blame | None = None
        self._settled = False  # the sides were brought together for the finding to come
        # the first finding kept per cause passed over in this example (`_fail`)
        self._passed: dict[tuple[frozenset[str], str], Finding] = {}
        # the coverage when this example met its first departure (`end_example`)
        self._past_base: tuple[Counter[str], int] | None = None
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
        self._count_all(self.state_rules, self._state_verdicts(state, profile), bad)

    def _state_verdicts(self, state: JSON, profile: Profile, said: Any = None
                        ) -> list[Verdict]:
        """Every state hook's verdict on `state`, in order (`state_fns`); `said`: the
        state look's answers on it, when the caller has them."""
        try:  # the common case: every oracle reads the state; one call each, no wrapper
            if self.state_prejudge is None:
                return [hook(state, profile) for hook in self.state_fns]
            if said is None:
                said = self.state_prejudge(state, profile)
            return _answers(said, self.state_where, self.state_fns, state,
                            profile)  # one look answers some
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # a state some oracle cannot even read: find out which, one at a time
            return [_guarded(hook, state, profile) for hook in self.state_fns]

    def _count_all(self, rules: list[str], verdicts: list[Verdict],
                   bad: list[tuple[str, str]]) -> None:
        """Count each applicable verdict for its rule (`rules[i]` is `verdicts[i]`'s);
        collect the violations in `bad`. Thousands of times a second: the counting is
        Counter.update's own loop (in C), called without its Python frame."""
        counted, wrong = _applicable(rules, verdicts)
        _count_elements(self.coverage.applied, counted)
        bad.extend(wrong)

    def _count_step(self, rules: list[str], verdicts: list[Verdict],
                    bad: list[tuple[str, str]]) -> list[str] | None:
        """`_count_all` for a step: `rules` (a list the hook plan keeps) then the state
        hooks' rules. Most steps repeat an earlier step's pattern of OK and NA for the same
        rules: what such a step counts is remembered by the identities of the rules list and
        of each verdict. Only patterns with no violation are remembered, so every identity in
        a key is the rules list's (kept alive by the hook plan), OK's or NA's (kept alive by
        their module): an equal key is the very same pattern. Returns what it counted, or
        None when the step had a violation."""
        key = (id(rules), *map(id, verdicts))
        counted = self.counted.get(key)
        wrong: list[tuple[str, str]] = []
        if counted is None:
            counted, wrong = _applicable(rules + self.state_rules, verdicts)
            bad.extend(wrong)
            if not wrong and len(self.counted) < COUNTED_KEPT:
                self.counted[key] = counted
        _count_elements(self.coverage.applied, counted)
        return None if wrong else counted

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
              expected: JSON = None, got: JSON = None, at: int | None = None) -> bool:
        """Raise a finding for `bad` (or the fallback); return False if all of it is muted.
        `expected` and `got` are the reference's and the engine's states at the failure;
        `at`, the failing operation's index when it is not the last one (a deferred step).
        The steps still waiting to be judged came before it: they are judged first, so
        findings come in the order of their operations, as without deferring."""
        if self.pending:
            self.finish()
        if self._past_base is None:  # this example's first departure: what follows is depth
            self._past_base = (Counter(self.coverage.applied), self.coverage.steps)
        if bad:
            rules = sorted({r for r, _ in bad})
            message = "; ".join(f"{r}: {m}" for r, m in bad)
        else:
            rules, message = [fallback_rule], fallback
        op = self._last_op() if at is None else at
        tainted = self.example_muted > 0
        # the sides brought together after it: what follows stands on its own again
        self.example_muted = 0 if self._settled else self.example_muted + 1
        self._settled = False
        keys = cause_keys(rules, bad)
        passed = all_known(rules, bad, self.muted)
        # a cause passed over again in this example is counted on the first finding kept
        # for it, not kept again: a systematic departure met at every step would otherwise
        # keep a trace per step (a named cause, or a game rule's: an engine check's cause is
        # its kind and words, told apart later by triage)
        again = (frozenset(keys), kind) if passed and (
            set(rules) - HARNESS_RULES.keys() or any("|" in k for k in keys)) else None
        if again is not None and again in self._passed:
            self._passed[again].repeats += 1
            return False
        finding = Finding(rules, kind, message, op, self.trace(None if at is None else op + 1),
                          sorted(set(related)), list(bad), tainted=tainted,
                          expected=expected, got=got, adopted=self._adopted_before(op))
        if passed:
            if again is not None:
                self._passed[again] = finding
            self.muted_findings.append(finding)
            return False
        if self.on_finding:
            self.on_finding(finding)
        if self.go_on:  # recorded; this example goes on past it, its causes passed over
            self.muted |= finding.causes
            self.found.append(finding)
            return False
        raise finding

    def _adopted_before(self, op: int) -> list[int]:
        return [i for i in self.adopted if i < op]

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
        if self.pending:  # the example before, judged in full first
            self.finish()
        self.start_spec = start
        self.ops = []
        self.example_muted = 0
        self.found, self.adopted = [], []
        self._settled = False
        self._past_base = None
        self._passed.clear()
        if self.dead or (self.deadline is not None and time.monotonic() > self.deadline) or (
                self.stop is not None and self.stop.is_set()):
            self.dead = True  # out of budget (or a finding ended the round): ask nothing
            return
        if start.get("kind") == "state" and not self.can_load:
            raise InvalidInput("a state start for an engine without load_state")
        self.coverage.examples += 1
        seed = start.get("seed", self.seed)
        self.example_seed, self.draws = seed, 0
        # follow mode: the reference starts unseeded (its full distributions) and takes the
        # engine's reported draws
        ref0 = self.game.initial(self.profile, None if self.follow else seed)
        ref0_json = self.game.observe(ref0)
        try:
            eng0 = self.engine.new_game(self.engine_profile, seed)
        except Refused as exc:
            self._fail([], "refused-new-game", f"new_game refused: {exc}", expected=ref0_json)
            eng0 = ref0_json
        except EngineFault as exc:
            self._fault(exc)
            return
        bad: list[tuple[str, str]] = []
        events_differ = ""
        if self.follow:
            reported = [] if eng0 is ref0_json else list(
                getattr(self.engine, "start_events", None) or [])
            ref0, want_events, _ = self._follow(ref0, [], reported, bad)
            ref0_json = self.game.observe(ref0)
            if reported != want_events and (self.events_compared or [
                    e for e in reported if is_chance_report(e)] != [
                    e for e in want_events if is_chance_report(e)]):
                events_differ = (f"new_game events differ: reference {canon(want_events)[:300]}"
                                 f", engine {canon(reported)[:300]}")
        # as in `step`: a state equal to the reference's gets the same verdicts as the
        # reference's own JSON, which the first step's JSON then shares parts with
        same = eng0 == ref0_json
        self._state_checks(ref0_json if same else eng0, bad)
        self.ref = self.json_of = ref0
        self.ref_json = ref0_json
        if bad or not same or events_differ:
            detail = _diff(ref0_json, eng0) if eng0 != ref0_json else events_differ
            if self.follow and self.unreported:
                detail = UNREPORTED + detail
            note = ""
            if not same:  # which one-rule change starts the engine's game
                draws = [e["chance"] for e in reported if is_chance_report(e)] \
                    if self.follow else None
                bad = self._charge(bad, self.blame.start(seed, eng0, ref0_json, draws,
                                                         self.muted),
                                   ref0_json, eng0, "at the start")
                if start.get("kind") != "state":  # a crafted start loads both sides anyway
                    note = self._settle(eng0)
            self._fail(bad, _kind(bad),
                       "the engine's new game differs from the reference's: " + detail + note,
                       expected=ref0_json, got=eng0)
        if self.follow and not self.dead and self.game.current(self.ref) == CHANCE:
            self.dead = True  # a set-up draw left unfollowed: never send it a chance action
        if start.get("kind") == "state" and not self.dead:
            self._load(start["state"])

    def _load(self, state: JSON) -> None:
        try:
            ref = self.game.load(self.profile, state)
        except BadState as exc:
            raise InvalidInput(f"start state rejected by the reference: {exc}") from None
        if self.follow and self.game.current(ref) == CHANCE:
            raise InvalidInput("a start at a draw for an engine that draws for itself")
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
        self.ref = self.json_of = ref
        self.ref_json = ref_json
        if eng != ref_json:
            self._fail([], "divergence", "state after load_state differs: "
                       + _diff(ref_json, eng), "ENGINE-LOAD-STATE", expected=ref_json, got=eng)

    def _last_op(self) -> int:
        """The index of the operation being judged (a resync, adoption or rewind it caused
        comes after it)."""
        i = len(self.ops) - 1
        while i >= 0 and self.ops[i].get("op") in MARKERS:
            i -= 1
        return i

    def _settle(self, engine_state: JSON) -> str:
        """After a departure (found or passed over), bring the two sides together again so
        the example goes on and every later step is judged on its own: an engine that loads
        states is put back on the reference's (resync); for any other, the reference takes
        the engine's state (adoption: the reference loads any canonical state). Recorded in
        the trace: a replay with the same muted causes does the same at the same place.
        Returns what a finding must add when the example cannot go on ("" when it can)."""
        self._settled = True
        if self.dead:
            return ""
        if self.can_load:
            return self._resync()
        return self._adopt(engine_state)

    def _resync(self) -> str:
        """Put the engine back on the reference's state (it loads states)."""
        self.ops.append({"op": "resync"})
        if not self.can_load or (self.follow and self.game.current(self.ref) == CHANCE):
            self.dead = True  # nothing to put it back with: this example ends here
            return ""
        try:
            self.engine.load_state(self.ref_json)
        except (Refused, EngineFault):
            self.dead = True
        return ""

    def _adopt(self, engine_state: JSON) -> str:
        """Put the reference on the engine's state (an engine without load_state)."""
        self.ops.append({"op": "adopt"})
        ref, why = self._adoptable(engine_state)
        if ref is None:
            self.dead = True
            return (f"; the reference cannot take on the engine's state ({why}), so this "
                    "example ends here")
        self.adopted.append(len(self.ops) - 1)
        self.ref = self.json_of = ref
        self.ref_json = engine_state
        return ""

    def _adoptable(self, state: JSON) -> tuple[Any, str]:
        """(the reference's state for the engine's canonical `state`, "") or (None, why)."""
        if not isinstance(state, dict):
            return None, "the engine gave no state"
        try:  # any well-formed state, whether or not the rules reach it (`adopt`)
            ref = getattr(self.game, "adopt", self.game.load)(self.profile, state)
            again = self.game.observe(ref)
        except (BadState, IllegalAction, KeyError, TypeError, ValueError, IndexError,
                AttributeError) as exc:
            return None, f"not a valid canonical state: {exc}"
        if again != state:  # loading it changes it: it is not canonical as sent
            return None, f"not a canonical state as sent: {_diff(state, again)[:300]}"
        if self.follow and self.game.current(ref) == CHANCE:
            return None, "it waits for a draw the engine did not report"
        return ref, ""

    def _rewind(self) -> str:
        """Take back an illegal action the engine accepted (a probe), for an engine without
        load_state: `undo` where it offers it, else a new game from the example's seed with
        every move applied again (engines are deterministic given their seed). The engine
        must then stand where the reference does."""
        if self.dead:
            return ""
        self._settled = True
        if self.can_load:
            return self._resync()
        self.ops.append({"op": "rewind"})
        try:
            now = self.engine.undo() if UNDO in self.caps else self._replay_moves()
        except (Refused, EngineFault) as exc:
            self.dead = True
            return f"; the engine could not be taken back ({exc}), so this example ends here"
        if now != self.ref_json:
            self.dead = True
            return ("; taken back, the engine does not stand where it stood ("
                    f"{_diff(self.ref_json, now)[:200]}), so this example ends here")
        return ""

    def _replay_moves(self) -> JSON:
        """A new game from this example's seed, then every move of the example again."""
        self.engine.new_game(self.engine_profile, self.example_seed)
        for op in self.ops:
            if op.get("op") == "apply":
                # a move it refused the first time is refused again: its state did not move
                with contextlib.suppress(Refused):
                    self.engine.apply(op["action"])
        return self.engine.observe()

    def step(self, action: JSON) -> list[JSON]:
        """Apply an action the reference accepts; returns the reference's events (its own
        list: read it, do not change it)."""
        before, ref = self.ref_json, self.ref
        try:
            ref_action = self.game.action_from_json(ref, action)
            ref_next, ref_events = self.game.apply(ref, ref_action)
        except IllegalAction as exc:
            raise InvalidInput(f"action {action} is illegal for the reference: {exc}") from None
        self.ops.append({"op": "apply", "action": action})
        self.coverage.steps += 1
        if self.on_step is not None:
            self.on_step()
        # `_observe`, written out: this is the lockstep's busiest line
        observe_next = self.observe_next
        ref_after = observe_next(ref, before, ref_next) if observe_next is not None \
            and self.json_of is ref else self.game.observe(ref_next)
        try:
            eng_after, eng_events = self.engine.apply(action)
        except Refused as exc:
            self._refused_legal(before, action, exc, ref_next, ref_after, ref_events)
            return list(ref_events)
        except EngineFault as exc:
            self._fault(exc)
            return list(ref_events)
        if self.lean and eng_after == ref_after and eng_events == ref_events:
            # the common case of a campaign's step, in short (what the lines below do when
            # nothing differs, no draw is followed and the step waits to be judged)
            self._wait(_transition((before, action, ref_after, ref_events)), ref_events,
                       ref_next, ref_after)
            return ref_events
        bad: list[tuple[str, str]] = []
        if self.follow:
            ref_next, ref_events, drawn = self._follow(ref_next, list(ref_events), eng_events,
                                                       bad)
            if drawn:
                self.ops[-1]["drawn"] = drawn  # for the reader; a replay follows them anew
            ref_after = self._observe(ref_next)
            eng_events_own = [e for e in eng_events if not is_chance_report(e)] \
                if drawn else eng_events
        else:
            eng_events_own, drawn = eng_events, []
        eng_cmp, ref_cmp = eng_events, ref_events
        if not self.events_compared:  # the engine has no events: its oracles read ours,
            eng_events_own = [e for e in ref_events if not is_chance_report(e)]
            eng_cmp = [e for e in eng_events if is_chance_report(e)]  # its draws compared
            ref_cmp = [e for e in ref_events if is_chance_report(e)]
        # No judges here: the reference accepted this action too, so a judge could only
        # repeat the reference's decision. Judges speak on refusals, probes and legal sets.
        diverged = eng_after != ref_after or eng_cmp != ref_cmp
        # An oracle is a function of the JSON it is shown. When the engine's state and events
        # equal the reference's, the reference's own objects get the very same verdicts, and
        # this step's `after` is then the next step's `before` (the same object): oracles
        # that analyse a state (a board's features) reuse that analysis.
        if diverged:
            seen, seen_events = eng_after, eng_events_own
        else:
            seen = ref_after
            seen_events = ref_events if eng_events_own is eng_events else eng_events_own
        transition = _transition((before, action, seen, seen_events))
        if self.defer and not diverged and not self.follow:
            # agreed (its `after` is `ref_after`): judged later with the others
            self._wait(transition, ref_events, ref_next, ref_after)
            return list(ref_events)
        if self.pending:  # the steps before this one, judged first
            self.finish()
        # an engine without events, on a step whose state differs: the reference's events
        # describe another state, so the oracles that read them judge by their state-only
        # form or not at all
        bare = diverged and not self.events_compared and eng_after != ref_after
        if self.lane is not None and not bare:  # the looks, then what their answers count
            self._judge_looked([transition], [(transition, drawn, ref_after, ref_events,
                                               eng_after, len(self.ops) - 1)].__getitem__, bad)
        else:
            rules, checks, where = self.plan.checks_for(action)
            self._judge_step(transition, rules, checks, where, bad, drawn, ref_after,
                             ref_events, bare=bare)
        if bad or diverged:
            detail = _diff(ref_after, eng_after) if eng_after != ref_after else (
                f"events differ: reference {canon(ref_cmp)[:300]}, "
                f"engine {canon(eng_cmp)[:300]}")
            if self.follow and self.unreported:
                detail = UNREPORTED + detail
            if eng_after != ref_after and not self._known(bad, ref_after, eng_after):
                # which one-rule change gives the engine's state
                draws = [e["chance"] for e in eng_events if is_chance_report(e)] \
                    if self.follow else None
                bad = self._charge(bad, self.blame.step(before, action, eng_after, ref_after,
                                                        draws, self.muted, {r for r, _ in bad}),
                                   ref_after, eng_after, f"after {canon(action)}")
            elif eng_after != ref_after and not bad:  # a known unexplained difference
                bad = self._charge(bad, [], ref_after, eng_after, f"after {canon(action)}")
            # the reference goes on: to its own next state, then the two sides together
            self.ref = self.json_of = ref_next
            self.ref_json = ref_after
            note = self._settle(eng_after) if diverged else ""
            self._fail(bad, _kind(bad), f"after {canon(action)}: {detail}{note}",
                       related=_event_rules(ref_events), expected=ref_after, got=eng_after)
            if not diverged:
                self._advance(ref_next, ref_after)
            return list(ref_events)
        if self.follow:
            self._advance(ref_next, ref_after)
        else:  # the common case of _advance: nothing to resync, no draw to follow
            self.ref = self.json_of = ref_next
            self.ref_json = ref_after
        return list(ref_events)

    def _refused_legal(self, before: JSON, action: JSON, exc: Refused, ref_next: Any,
                       ref_after: JSON, ref_events: list[JSON]) -> None:
        """The engine refused an action the reference accepts: charged to the models
        under which it is illegal (a reading of the rule that forbids it), else to the
        rules whose judges call it legal. The example goes on from where the engine
        stands (its state did not move) or, for an engine that loads states, from the
        reference's."""
        bad: list[tuple[str, str]] = []
        self._judge(before, action, False, bad)
        unexplained = f"ENGINE-AGREES|{tag('refused', self.plan.action_kind(action))}" \
            if self.plan.action_kind is not None else "ENGINE-AGREES"
        known = all_known([], bad, self.muted) if bad else unexplained in self.muted
        if not known:
            found = self.blame.refusal(before, action, self.muted, {r for r, _ in bad})
            bad = self._charge(bad, found, None, None, f"refused {canon(action)}")
        if not bad:  # no rule calls it illegal: a difference no rule explains, by kind
            bad = [(unexplained.partition("|")[0], cause(
                unexplained.partition("|")[2] or "refused", f"the engine refused "
                f"{canon(action)[:300]}, which the rules allow, and no one-rule change of "
                "the rules forbids it"))]
        if self.can_load:
            self.ref = self.json_of = ref_next
            self.ref_json = ref_after
            note = self._settle(None)
        else:  # it did not move: the reference stays with it
            note = self._settle(before)
        self._fail(bad, "refused-legal", f"engine refused legal action {canon(action)}: "
                   f"{exc}{note}", related=_event_rules(ref_events), expected=before)

    def _known(self, bad: list[tuple[str, str]], want: JSON, got: JSON) -> bool:
        """Whether a departing step is a known cause met again, without asking the models:
        the oracles object with causes already passed over, or nothing objects and the
        same fields differ as in an unexplained difference already passed over. (A cause
        a model named is recognised by the models themselves, known ones first.)"""
        if bad:
            return all_known([], bad, self.muted)
        if not (isinstance(want, dict) and isinstance(got, dict)):
            return False
        fields = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        return f"ENGINE-AGREES|{tag('fields', *fields)}" in self.muted

    @property
    def blame(self) -> Blame:
        """The game's departure models under this profile (fuzz.blame), made on first use."""
        if self._blame is None:
            self._blame = blame_for(self.game.name, self.profile)
        return self._blame

    def _charge(self, bad: list[tuple[str, str]], found: list[Explanation], want: JSON,
                got: JSON, where: str) -> list[tuple[str, str]]:
        """The violations a departure is charged with: the rule of the first model (in
        phase order) that explains it, in its own oracle's words where that oracle
        objected, the other models named; else the rules whose oracles object; else, for
        states that differ, an unexplained difference (ENGINE-AGREES) named by the fields
        that differ, never a rule the step did not touch."""
        if found:
            # a model whose rule's own oracle objects too is confirmed by it: first
            objecting = {r for r, _ in bad}
            found = sorted(found, key=lambda e: e.rule not in objecting)
            first = found[0]
            own = next((m for r, m in bad if r == first.rule), None)
            text = plain(own) if own else f"{where}: the engine's state is what {first.text} gives"
            if len(found) > 1:
                more = ", ".join(e.text for e in found[1:4])
                text += f" (also explained by {more}{', ...' if len(found) > 4 else ''})"
            # the oracle's own name for the departure, where it objected: the same
            # departure seen where no model speaks (a listing, a refusal) is this one
            also = [] if own is None else [cause_of(own) or "rule"]
            # its oracle says one step cannot tell its rule from others (oracles.base.
            # ambiguous): kept so, for the triage to settle, the same whether the models
            # were all asked or a known cause's alone (`Blame._search`)
            tied = alternatives(own) if own else frozenset()
            if first.rule in tied:
                text = ambiguous(sorted(tied), text)
            return [(first.rule, cause(first.kind, text, also))]
        if bad or not (isinstance(want, dict) and isinstance(got, dict)):
            return bad
        fields = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
        # a draw the engine kept to itself is the likeliest cause: said first
        note = UNREPORTED if self.follow and self.unreported else ""
        return [("ENGINE-AGREES", cause(tag("fields", *fields), (
            f"unexplained difference {where}: {note}no rule's oracle objects and no one-rule "
            f"change of the rules gives the engine's state ({_diff(want, got)})")))]

    def _wait(self, step: Transition, ref_events: list[JSON], ref_next: Any,
              ref_after: JSON) -> None:
        """Queue a step on which the engine agreed with the reference, to be judged with
        the others (`finish`, when the queue is full at the latest); the reference goes
        on to `ref_next`."""
        self.pending.append(step)
        self.pending_at.append(len(self.ops) - 1)
        self.pending_events.append(ref_events)
        self.ref = self.json_of = ref_next
        self.ref_json = ref_after
        if len(self.pending) >= self.defer:
            self.finish()

    def finish(self) -> None:
        """Judge the steps still waiting (`defer`), in order: what their oracles count,
        and a finding for the first that breaks a rule (its trace ends at that step: the
        steps after it were played but are not its cause). A lockstep made with `defer`
        is finished when its example ends (the state machine's teardown) and before any
        other finding is raised. Why wait: the engine and the reference were compared at
        every step as it was played; what waits is only the oracles' look at the
        reference's own JSON, which is the same whenever it is asked, and asked for many
        steps in a row it costs far less (the interpreter stays in the oracles' code)."""
        steps, at, events = self.pending, self.pending_at, self.pending_events
        if steps:
            self.pending, self.pending_at, self.pending_events = [], [], []
            # a step that waited agreed with the reference: the engine's state after it is
            # equal to the reference's, the one its oracles saw
            self._judge_looked(steps, lambda i: (steps[i], NO_DRAWS, steps[i].after,
                                                 events[i], steps[i].after, at[i]))

    def end_example(self) -> None:
        """The example is over: its waiting steps judged (`finish`), and what it exercised
        past its first departure counted (`Coverage.past`)."""
        try:
            self.finish()
        finally:
            if self._past_base is not None:
                base, steps = self._past_base
                self._past_base = None
                self.coverage.past.update(self.coverage.applied - base)
                self.coverage.past_steps += self.coverage.steps - steps

    def _judge_looked(self, steps: list[Transition], waiting: Callable[[int], Waiting],
                      bad_out: list[tuple[str, str]] | None = None) -> None:
        """The oracles on steps of a game with a step look, in order: each look over the
        whole batch in turn, then what each step's answers count when the lane knows them,
        else its every check and state hook (`_judge_step`, with `waiting(i)`, all that is
        known of step i). The violations go to `bad_out` when given (a step judged as it is
        played), else each step's become a finding at its own operation (`finish`)."""
        profile, lane, applied = self.profile, self.lane, self.coverage.applied
        assert lane is not None  # a game with a step look has one
        checks_for = self.plan.checks_for
        lists = [checks_for(t.action) for t in steps]
        said_all = _ask_all(self.prejudge, steps, profile)
        rules_all = [lst[0] for lst in lists]
        # each step's state look answers, or (no state look) its state hooks' own verdicts
        state_all: list[Any]
        asked_all: list[Any]
        if self.state_prejudge is None:  # the verdicts' identities go in the key
            state_all = [None] * len(steps)
            asked_all = [self._state_verdicts(t.after, profile) for t in steps]
            keys = [(id(rules), id(said), *map(id, asked)) for rules, said, asked in zip(
                rules_all, said_all, asked_all, strict=True)]
        else:
            state_all = _ask_all(self.state_prejudge, [t.after for t in steps], profile)
            asked_all = [None] * len(steps)
            keys = list(zip(map(id, rules_all), map(id, said_all), map(id, state_all),
                            strict=True))
        # the lane's entries met, by step (None: not known). An entry holds the objects whose
        # identities make its key, so while it lives an equal key means the very same rules
        # list and answers
        known_all = list(map(lane.get, keys))
        upto = 0  # the steps before this one count their entries, whatever happens next
        try:
            for i in [i for i, known in enumerate(known_all) if known is None]:
                known = lane.get(keys[i])  # remembered since, at a step of this batch
                if known is not None:
                    known_all[i] = known
                    continue
                upto = i
                t, drawn, ref_after, ref_events, eng_after, op = waiting(i)
                rules, checks, where = lists[i]
                bad = [] if bad_out is None else bad_out
                self._judge_step(t, rules, checks, where, bad, drawn, ref_after, ref_events,
                                 said_all[i], state_all[i], keys[i], asked_all[i])
                if bad and bad_out is None:
                    self._fail(bad, "violation", f"after {canon(t.action)}",
                               related=_event_rules(ref_events), expected=ref_after,
                               got=eng_after, at=op)
            upto = len(steps)
        finally:  # a finding raised: what the steps before it counted is counted
            _count_hits(applied, [known for known in known_all[:upto] if known is not None])

    def _judge_step(self, t: Transition, rules: list[str], checks: list[CheckFn],
                    where: list[int], bad: list[tuple[str, str]], drawn: list[JSON],
                    ref_after: JSON, ref_events: list[JSON], said: Any = None,
                    said_state: Any = None, key: tuple[int, ...] | None = None,
                    states: list[Verdict] | None = None, bare: bool = False) -> None:
        """Every check on step `t` and every state hook on its state after, counted, the
        violations in `bad`. `drawn`, `ref_after`, `ref_events`: the draws followed, and
        the reference's own state and events after the step (`_composite_filter`).
        `said`, `said_state`, `states`: the shared looks' answers and the state hooks'
        verdicts, when the caller has them (`key`: the lane's key for them)."""
        profile = self.profile
        try:
            if self.prejudge is None:
                results = [check(t, profile) for check in checks]
            else:  # one shared look answers some; the rest are asked
                if said is None:
                    said = self.prejudge(t, profile)
                results = _answers(said, where, checks, t, profile)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # a reply some oracle cannot even read: find out which, one at a time
            results = [_guarded(check, t, profile) for check in checks]
        if bare and self.event_checks:  # events unknown: state-only forms, or nothing
            results = [v if id(check) not in self.event_checks else self._bare_verdict(
                self.event_checks[id(check)], t) for check, v in zip(checks, results,
                                                                     strict=True)]
            key = None  # not a pattern for the lane: its verdicts are not the looks'
        if drawn and any(v is not NA and v is not OK for v in results):
            own = Transition(t.before, t.action, ref_after,
                             [e for e in ref_events if not is_chance_report(e)])
            results = [v for _, v in self._composite_filter(
                list(zip(rules, results, strict=True)), own)]
        looked = states is None  # the state hooks answered by the state look, if any
        if states is None:  # the state hooks on the state after
            states = self._state_verdicts(t.after, profile, said_state)
        if self.adopted and any(v is not NA and v is not OK for v in results + states):
            results, states = self._own_fault(t, checks, results, states, ref_after,
                                              ref_events)
            key = None
        # one count for the step's checks and state hooks, in that order
        counted = self._count_step(rules, results + states, bad)
        if key is not None and counted is not None and self.lane is not None \
                and len(self.lane) < COUNTED_KEPT and _all_said(said, where) \
                and (not looked or _all_said(said_state, self.state_where)):
            # every check's verdict was the step look's answer, and every state hook's the
            # state look's (or the hook's own OK or NA, in the key): the same answers, the
            # same count
            self.lane[key] = (rules, said, said_state, counted)

    def _own_fault(self, t: Transition, checks: list[CheckFn], results: list[Verdict],
                   states: list[Verdict], ref_after: JSON, ref_events: list[JSON]
                   ) -> tuple[list[Verdict], list[Verdict]]:
        """Past an adoption the state before a step may be one the rules never reach (the
        engine's): an oracle may then object to the reference's own step from it. A
        violation counts only where the oracle finds the reference's own step from the same
        state fine; on a step where the engine agreed, none does."""
        profile = self.profile
        own = Transition(t.before, t.action, ref_after,
                         [e for e in ref_events if not is_chance_report(e)])

        def faulty(v: Verdict) -> bool:
            return v is not NA and v is not OK

        results = [NA if faulty(v) and faulty(_guarded(check, own, profile)) else v
                   for check, v in zip(checks, results, strict=True)]
        states = [NA if faulty(v) and faulty(_guarded(hook, ref_after, profile)) else v
                  for hook, v in zip(self.state_fns, states, strict=True)]
        return results, states

    def _bare_verdict(self, bare: CheckFn | None, t: Transition) -> Verdict:
        """An event-reading check's verdict on a step whose events are unknown: its
        state-only form's, or not applicable."""
        if bare is None:
            return NA
        return _guarded(bare, Transition(t.before, t.action, t.after, []), self.profile)

    def _composite_filter(self, verdicts: list[tuple[str, Verdict]],
                          ref_step: Transition) -> list[tuple[str, Verdict]]:
        """Follow mode: the engine's reply to an action already includes its draws, so an
        oracle sees the action and the draws as one step. A violation counts only where the
        oracle finds the reference's own composite step fine; where it flags the reference
        too, it cannot read such a step (its rule is listed in `self.blind`)."""
        hooks = dict(self.check_hooks)
        out: list[tuple[str, Verdict]] = []
        for rule, verdict in verdicts:
            if verdict is not NA and verdict is not OK:
                ref_verdict = _guarded(hooks[rule], ref_step, self.profile)
                if ref_verdict is not NA and ref_verdict is not OK:
                    self.blind.add(rule)
                    verdict = NA
            out.append((rule, verdict))
        return out

    def _follow(self, ref: Any, want: list[JSON], reported: list[JSON],
                bad: list[tuple[str, str]]) -> tuple[Any, list[JSON], list[JSON]]:
        """Apply the engine's reported draws to the reference (follow mode). Returns the
        reference's state after them, the events the engine should have sent (`want`, the
        reference's own, then each draw's report and its events, in order) and the draws
        followed. A draw the reference does not list, or a draw the rules call for that
        the engine did not report, is a violation of the game's chance rule (in `bad`)."""
        game, drawn = self.game, []
        for event in reported:
            if not is_chance_report(event):
                continue
            if game.current(ref) != CHANCE:
                break  # a draw the rules do not call for: the events comparison shows it
            outcome = event["chance"]
            listing = game.chance(ref)
            try:
                act = game.action_from_json(ref, outcome)
                p = next((o.probability for o in listing if o.action == act), None)
            except (IllegalAction, KeyError, TypeError, ValueError, IndexError):
                act, p = None, None
            rule = chance_rule(game.name, act if act is not None else listing[0].action
                               if listing else None)
            self.coverage.applied[rule] += 1
            if act is None or not p:
                # the rule that forbids this draw, where an oracle's judge knows it (the
                # lake drawn early is CARC-RIVER-LAKE-ENDS's); else the game's chance rule
                judged: list[tuple[str, str]] = []
                self._judge(game.observe(ref), outcome, True, judged)
                bad.extend(judged or [(rule, f"the engine reported the draw "
                                             f"{canon(outcome)[:200]}, which the reference "
                                             "does not list as a chance outcome here")])
                break
            if self.chance_stats is not None:
                self.chance_stats.add(game.name, rule, (self.example_seed, self.draws),
                                      listing, act)
            self.draws += 1
            canonical = game.action_to_json(ref, act)
            ref, events = game.apply(ref, act)
            want += [{"chance": canonical}, *events]
            drawn.append(canonical)
        # A draw the rules call for that the engine did not report: its state differs from
        # the reference's (still waiting for the draw), and the oracles that judge the step
        # name the rule where they can; the message says what is missing.
        self.unreported = game.current(ref) == CHANCE and not bad
        return ref, want, drawn

    def _observe(self, ref_next: Any) -> JSON:
        """The reference's canonical JSON of `ref_next`, a state its `apply` reached from
        `self.ref`: built from `self.ref_json` where the game can, else observed in full."""
        if self.observe_next is not None and self.json_of is self.ref:
            return self.observe_next(self.ref, self.ref_json, ref_next)
        return self.game.observe(ref_next)

    def _advance(self, ref_next: Any, ref_after: JSON) -> None:
        self.ref = self.json_of = ref_next
        self.ref_json = ref_after
        if self.follow and self.game.current(ref_next) == CHANCE:
            self.dead = True  # a draw left unfollowed: never send a chance action to it

    def probe(self, action: JSON, rule: str | None = None) -> bool:
        """Offer an action the reference refuses; the engine must refuse it too. Returns
        False (and does nothing) when the reference accepts it. `rule`: the one rule the
        probe was built to break (counted per rule: a rule "passed" its probes only where
        they were tried and refused), charged when the engine accepts it and no judge
        names another."""
        try:
            self.game.apply(self.ref, self.game.action_from_json(self.ref, action))
            return False
        except IllegalAction:
            pass
        before = self.ref_json
        if self.muted and not self.can_load and self._known_acceptance(before, action, rule):
            return False  # accepted, it would only repeat a known cause (and cost a rewind)
        self.ops.append({"op": "probe", "action": action})
        if rule is not None:
            self.coverage.probes[rule] += 1
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
        got = _state_of(reply)
        if not bad:  # no judge names it: the models under which it is legal, if any
            bad = self._charge(bad, self.blame.acceptance(before, action, got, self.muted),
                               None, None, f"accepted {canon(action)}")
        if not bad and rule is not None:  # built to break that rule and no other
            bad = [(rule, cause("accepted-probe", f"the engine accepted {canon(action)[:300]}, "
                                f"which breaks {rule} and no other rule"))]
        note = self._rewind()  # the reference never played it: take the engine back
        self._fail(bad, "accepted-illegal",
                   f"engine accepted illegal action {canon(action)}{note}", expected=before,
                   got=got)
        return True

    def _known_acceptance(self, before: JSON, action: JSON, rule: str | None) -> bool:
        """Whether the engine accepting `action` would be a cause already passed over in
        this example: the rules its judges name, or the probe's own rule, all known."""
        would: list[tuple[str, str]] = []
        profile = self.profile
        for judged, judge in self.judge_hooks:
            verdict = _guarded(judge, before, action, True, profile)
            if verdict is not NA and verdict is not OK:
                would.append((judged, str(verdict)))
        if would:
            return all_known([], would, self.muted)
        return rule is not None and (rule in self.muted
                                     or f"{rule}|accepted-probe" in self.muted)

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
            bad = self._state_departure(before, now, "after a refusal")
            note = self._settle(now)
            self._fail(bad, _kind(bad), "a refused action changed the engine's state: "
                       + _diff(before, now) + note, expected=before, got=now)

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
            want = self.ref_json
            bad = self._state_departure(want, now, "on observe")
            note = self._settle(now)
            self._fail(bad, _kind(bad), "observe differs from the reference: "
                       + _diff(want, now) + note, expected=want, got=now)

    def _state_departure(self, want: JSON, got: JSON, where: str) -> list[tuple[str, str]]:
        """What a state the engine shows apart from any step (observe, a refusal that moved
        it) is charged with: the state hooks that object to it (and not to the
        reference's), else an unexplained difference named by the fields that differ."""
        bad: list[tuple[str, str]] = []
        self._state_checks(got, bad)
        if bad:  # not what the reference's own state breaks too (past an adoption)
            _, mine = _applicable(self.state_rules, self._state_verdicts(want, self.profile))
            bad = [v for v in bad if v not in mine]
        return self._charge(bad, [], want, got, where)

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
            self._settle(None)
            return
        except EngineFault as exc:
            self._fault(exc)
            return
        if saved != self.ref_json:
            self._settle(None)
            self._fail([], "divergence", "observe differs from the reference: "
                       + _diff(self.ref_json, saved), expected=self.ref_json, got=saved)
        elif again != saved:
            self._settle(None)
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
            if not same and self.weights_hooks:
                self._weights(state, got["outcomes"], bad)
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

    def _weights(self, state: JSON, outcomes: list[JSON], bad: list[tuple[str, str]]) -> None:
        """The chance rules' oracles on the probabilities the engine lists."""
        try:
            listed = [(o["action"], Fraction(str(o["p"]))) for o in outcomes]
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            bad.append(("ENGINE-ALIVE", "legal outcomes' probabilities are not fractions"))
            return
        for rule, hook in self.weights_hooks:
            self._count(rule, _guarded(hook, state, listed, self.profile), bad)

    # --- traces --------------------------------------------------------------------------
    def trace(self, upto: int | None = None) -> dict[str, Any]:
        """This example as a trace: its operations, the first `upto` of them if given."""
        doc = {"format": "gamecert-trace/1", "game": self.game.name,
               "profile": self.profile.id, "seed": self.seed, "start": self.start_spec,
               "ops": self.ops[:upto] if upto is not None else list(self.ops)}
        record = record_of(self.engine_profile)
        if record is not None:  # a season's: the whole profile, so a replay plays it again
            doc["profile_doc"] = record
        if self.muted:  # a replay must pass over the same findings, and resync the same way
            doc["muted"] = sorted(self.muted)
        if self.caps != FULL:  # a replay plans as the campaign did
            doc["capabilities"] = sorted(self.caps)
        return doc

    def segment(self) -> dict[str, Any]:
        """This example as one earlier game of a trace's prelude."""
        return {"start": self.start_spec, "ops": list(self.ops), "muted": sorted(self.muted)}


def _answers(said: Sequence[Any], where: list[int], hooks: list[Any],
             *args: Any) -> list[Verdict]:
    """Each hook's verdict: the shared look's answer `said[where[i]]` where it gives one,
    else the hook asked (`where[i]` is -1 where the look answers nothing for it)."""
    if None not in said and -1 not in where:  # it answers every hook asked
        return list(map(said.__getitem__, where))
    return [hook(*args) if i < 0 or said[i] is None else said[i]
            for i, hook in zip(where, hooks, strict=True)]


# `Transition(*fields)` without its Python-level `__new__` (the step loop makes one a step)
_transition: Callable[[tuple[Any, Any, Any, Any]], Transition] = partial(tuple.__new__,
                                                                         Transition)


def _count_hits(applied: Counter[str], hits: list[Any]) -> None:
    """Count what each of the lane's entries `hits` counts, once per time it is listed:
    each distinct entry's rules once, by how often it was met."""
    by_id = {id(known): known for known in hits}
    for key, times in Counter(map(id, hits)).items():
        for rule in by_id[key][3]:
            applied[rule] += times


def _ask_all(look: Callable[[Any, Profile], Any], args: list[Any], profile: Profile
             ) -> list[Any]:
    """A shared look's answers on each of `args`, in order; None where it cannot read one
    (asked again then, and the hooks one at a time, by `Lockstep._judge_step`)."""
    out: list[Any] = []
    for arg in args:
        try:
            out.append(look(arg, profile))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            out.append(None)
    return out


def _all_said(said: Any, where: list[int]) -> bool:
    """Whether a look's answers `said` hold an answer for every hook (`where`, as in
    `_answers`): no hook was asked."""
    return said is not None and -1 not in where and all(said[i] is not None for i in where)


def _applicable(rules: list[str], verdicts: list[Verdict]
                ) -> tuple[list[str], list[tuple[str, str]]]:
    """(the rules whose verdict applies, the violations as (rule, message)); `rules[i]` is
    `verdicts[i]`'s."""
    return ([rule for rule, v in zip(rules, verdicts, strict=True) if v is not NA],
            [(rule, str(v)) for rule, v in zip(rules, verdicts, strict=True)
             if v is not NA and v is not OK])


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


def _kind(bad: list[tuple[str, str]]) -> str:
    """A finding's kind: a rule broken, or a difference no rule explains."""
    return "violation" if any(r != "ENGINE-AGREES" for r, _ in bad) else "divergence"


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
