"""Drive an engine under test and the reference in lockstep, and judge every step.

`Lockstep` is the core the Hypothesis state machine, `replay` and the benchmarks share. Each
operation feeds the same input to both engines, runs every oracle on what the engine under
test did, compares canonical JSON, and raises a `Finding` naming the rules involved. Every
operation is recorded, so a finding carries the trace that reproduces it.

This file drives: a new game, a loaded state, a step, and the findings they raise. The rest
of the class, one job a file: judging a step (fuzz.step.judge), the fast paths behind one
seam (fuzz.step.fast), keeping the sides together (fuzz.step.align) and the other
operations (fuzz.step.operations). The records it reports are fuzz.step.finding's.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from gamecert.fuzz.engines.capabilities import CHANCE as CHANCE_CAP
from gamecert.fuzz.engines.capabilities import (
    FULL,
    LOAD_STATE,
    NO_EVENTS,
    is_chance_report,
)
from gamecert.fuzz.engines.engine import Engine, EngineFault, Refused
from gamecert.fuzz.step.blame import Blame, History, tag
from gamecert.fuzz.step.fast import AGREED_BATCH
from gamecert.fuzz.step.finding import (
    HARNESS_RULES,
    JSON,
    MARKERS,
    UNREPORTED,
    Coverage,
    Finding,
    InvalidInput,
    all_known,
    canon,
    cause_keys,
    diff,
    event_rules,
    finding_kind,
)
from gamecert.fuzz.step.hook_plan import plan_for
from gamecert.fuzz.step.judge import as_transition
from gamecert.fuzz.step.operations import Operations
from gamecert.oracles.base import (
    CheckFn,
    Oracle,
    Transition,
    cause,
)
from gamecert.reference_engine.contract import (
    CHANCE,
    TERMINAL,
    BadState,
    Game,
    IllegalAction,
)
from gamecert.spec import Profile
from gamecert.spec.profile_file import record_of


class Lockstep(Operations):
    """Two engines in step: the engine under test and the reference, fed the same operations
    (`start`, `step`, `probe`, `referee`, `observe`, `reload`, `compare_legal`), every
    oracle asked, every departure a `Finding`."""

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
        # What the engine declared (fuzz.engines.capabilities); None: everything, today's protocol.
        # Without `chance` it draws for itself and reports its draws: the reference follows
        # them (follow mode). Without `load_state` nothing is loaded: no resync either.
        self.caps = FULL if caps is None else caps
        self.follow = CHANCE_CAP not in self.caps
        self.events_compared = NO_EVENTS not in self.caps
        self.can_load = LOAD_STATE in self.caps
        self.chance_stats = chance_stats  # fuzz.findings.chance_stats.ChanceStats: followed draws
        self.example_seed = seed
        self.draws = 0  # draws followed in this example (the key of a statistics sample)
        self.blind: set[str] = set()  # oracles that cannot read a step with draws in it
        self.unreported = False  # the last followed reply lacked a draw the rules call for
        self.engine = engine
        self.profile = profile
        # the oracles' hooks sorted for the step loop, shared by every lockstep of the same
        # game, profile and oracles (`fuzz.step.hook_plan`), and so are the memos it fills
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
        # A game whose canonical state leaves out what its engine keeps (fuzz.step.blame):
        # the steps both sides agreed on since they were last together, for the models to
        # replay when a departure made earlier shows only later
        self.history: History | None = History(None, []) if getattr(
            game, "hidden_state", False) else None
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
        if self.history is not None:
            self.history = History(None, [])
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
            detail = diff(ref0_json, eng0) if eng0 != ref0_json else events_differ
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
            self._fail(bad, finding_kind(bad),
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
                       + diff(ref_json, eng), "ENGINE-LOAD-STATE", expected=ref_json, got=eng)

    def _last_op(self) -> int:
        """The index of the operation being judged (a resync, adoption or rewind it caused
        comes after it)."""
        i = len(self.ops) - 1
        while i >= 0 and self.ops[i].get("op") in MARKERS:
            i -= 1
        return i

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
            self._wait(as_transition((before, action, ref_after, ref_events)), ref_events,
                       ref_next, ref_after)
            if self.history is not None:
                self._remember(before, action, None, ref_after)
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
        transition = as_transition((before, action, seen, seen_events))
        draws = [e["chance"] for e in eng_events if is_chance_report(e)] \
            if self.follow else None
        if self.defer and not diverged and not self.follow:
            # agreed (its `after` is `ref_after`): judged later with the others
            self._wait(transition, ref_events, ref_next, ref_after)
            if self.history is not None:
                self._remember(before, action, draws, ref_after)
            return list(ref_events)
        if self.pending:  # the steps before this one, judged first
            self.finish()
        # an engine without events, on a step whose state differs: the reference's events
        # describe another state, so the oracles that read them judge by their state-only
        # form or not at all
        bare = diverged and not self.events_compared and eng_after != ref_after
        self._judge_now(transition, drawn, ref_after, ref_events, eng_after, bad, bare)
        if bad or diverged:
            detail = diff(ref_after, eng_after) if eng_after != ref_after else (
                f"events differ: reference {canon(ref_cmp)[:300]}, "
                f"engine {canon(eng_cmp)[:300]}")
            if self.follow and self.unreported:
                detail = UNREPORTED + detail
            if eng_after != ref_after and not self._known(bad, ref_after, eng_after):
                # which one-rule change gives the engine's state (replayed over the steps
                # agreed since the two sides were last together, where the game hides state)
                history = self.history if self.history is not None \
                    and self.history.at is before else None
                bad = self._charge(bad, self.blame.step(before, action, eng_after, ref_after,
                                                        draws, self.muted, {r for r, _ in bad},
                                                        history),
                                   ref_after, eng_after, f"after {canon(action)}")
            elif eng_after != ref_after and not bad:  # a known unexplained difference
                bad = self._charge(bad, [], ref_after, eng_after, f"after {canon(action)}")
            # the reference goes on: to its own next state, then the two sides together
            self.ref = self.json_of = ref_next
            self.ref_json = ref_after
            note = self._settle(eng_after) if diverged else ""
            self._fail(bad, finding_kind(bad), f"after {canon(action)}: {detail}{note}",
                       related=event_rules(ref_events), expected=ref_after, got=eng_after)
            if not diverged:
                self._advance(ref_next, ref_after)
            if self.history is not None:  # the engine's state, where the reference took it
                self._remember(before, action, draws, eng_after if diverged else ref_after,
                               departed=diverged)
            return list(ref_events)
        if self.follow:
            self._advance(ref_next, ref_after)
        else:  # the common case of _advance: nothing to resync, no draw to follow
            self.ref = self.json_of = ref_next
            self.ref_json = ref_after
        if self.history is not None:
            self._remember(before, action, draws, self.ref_json)
        return list(ref_events)

    def _remember(self, before: JSON, action: JSON, draws: list[JSON] | None,
                  shown: JSON, departed: bool = False) -> None:
        """Add a step to the history: the state the engine showed after it, and whether the
        reference took that state (`departed`: the engine's own, past a departure). A
        `before` the history did not end on (a state was loaded, a probe was taken back, a
        new game) starts it anew there."""
        history = self.history
        assert history is not None
        if history.at is not before:
            history = self.history = History(before, [])
        history.steps.append((action, draws, shown, departed))
        history.at = self.ref_json

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
                   f"{exc}{note}", related=event_rules(ref_events), expected=before)

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


# the lockstep's public names, with the records it reports (fuzz.step.finding) and the
# batch size a campaign defers by (fuzz.step.fast): what the search, the findings and the
# tests import from here
__all__ = ["AGREED_BATCH", "HARNESS_RULES", "Coverage", "Finding", "InvalidInput", "Lockstep",
           "cause_keys"]
