"""Judging a step, the plain way: every oracle's hook asked on what the engine did, its
verdicts counted per rule, and a departure charged to a rule (the counterfactual models of
fuzz.step.blame, else the oracles that object, else an unexplained difference). Where the
game has a shared look (fuzz.step.hook_plan's `prejudge`, `state_prejudge`), its answers
stand for the hooks it answers, and the rest are asked (`_answers`).

`Judging` is the lockstep's judging half (fuzz.step.lockstep's `Lockstep` is one); the
attributes it reads are the lockstep's, listed below. It asks no engine and moves no
state: driving is fuzz.step.lockstep's, the batched and remembered ways of judging
(the lane) are fuzz.step.fast's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import partial
from typing import Any

from gamecert.fuzz.engines.capabilities import (
    is_chance_report,
)
from gamecert.fuzz.step.blame import Blame, Explanation, blame_for, tag
from gamecert.fuzz.step.finding import JSON, UNREPORTED, Coverage, all_known, diff
from gamecert.fuzz.step.hook_plan import HookPlan
from gamecert.oracles.base import (
    NA,
    OK,
    CheckFn,
    Transition,
    Verdict,
    Violation,
    alternatives,
    ambiguous,
    cause,
    cause_of,
    plain,
)
from gamecert.reference_engine.contract import (
    Game,
)
from gamecert.spec import Profile

try:  # what Counter.update runs on an iterable, in C: counts a list with no Python frame
    from collections import _count_elements  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - every CPython since 3.2 has it
    def _count_elements(mapping: Counter[str], iterable: Iterable[str]) -> None:
        mapping.update(iterable)

COUNTED_KEPT = 4096  # step patterns remembered per hook plan (_count_step, the lane)


class Judging:
    """The oracles on a step, a state, an acceptance, a listing or a draw's weights."""

    # what a lockstep holds that judging reads (set by `Lockstep.__init__`)
    game: Game[Any, Any]
    profile: Profile
    plan: HookPlan
    coverage: Coverage
    muted: set[str]
    follow: bool
    unreported: bool
    blind: set[str]
    adopted: list[int]
    state_rules: list[str]
    state_fns: list[Any]
    state_prejudge: Any
    state_where: list[int]
    prejudge: Any
    check_hooks: list[tuple[str, CheckFn]]
    judge_hooks: list[tuple[str, Any]]
    listed_hooks: list[tuple[str, Any]]
    weights_hooks: list[tuple[str, Any]]
    counted: dict[tuple[int, ...], list[str]]
    event_checks: dict[int, CheckFn | None]
    _blame: Blame | None

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
            return [guarded(hook, state, profile) for hook in self.state_fns]

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
            self._count(rule, guarded(judge, state, action, accepted, profile), bad)

    def _listed(self, state: JSON, action: JSON, listed: bool,
                bad: list[tuple[str, str]]) -> None:
        """A legal listing that includes or leaves out `action`, where the two engines differ:
        judged by the `listed` hooks of a game that has them, else as acceptance."""
        if not self.listed_hooks:
            self._judge(state, action, listed, bad)
            return
        for rule, hook in self.listed_hooks:
            self._count(rule, guarded(hook, state, action, listed, self.profile), bad)

    def _judge_step(self, t: Transition, rules: list[str], checks: list[CheckFn],
                    where: list[int], bad: list[tuple[str, str]], drawn: list[JSON],
                    ref_after: JSON, ref_events: list[JSON], said: Any = None,
                    said_state: Any = None, states: list[Verdict] | None = None,
                    bare: bool = False) -> tuple[Any, list[str]] | None:
        """Every check on step `t` and every state hook on its state after, counted, the
        violations in `bad`. `drawn`, `ref_after`, `ref_events`: the draws followed, and
        the reference's own state and events after the step (`_composite_filter`).
        `said`, `said_state`, `states`: the shared looks' answers and the state hooks'
        verdicts, when the caller has them. Returns, for the lane (fuzz.step.fast), the
        step look's answers and what the step counted, when its verdicts are the looks'
        own and none is a violation; else None."""
        profile = self.profile
        own_answers = True  # every verdict as the hooks (or the looks) gave it
        try:
            if self.prejudge is None:
                results = [check(t, profile) for check in checks]
            else:  # one shared look answers some; the rest are asked
                if said is None:
                    said = self.prejudge(t, profile)
                results = _answers(said, where, checks, t, profile)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            # a reply some oracle cannot even read: find out which, one at a time
            results = [guarded(check, t, profile) for check in checks]
        if bare and self.event_checks:  # events unknown: state-only forms, or nothing
            results = [v if id(check) not in self.event_checks else self._bare_verdict(
                self.event_checks[id(check)], t) for check, v in zip(checks, results,
                                                                     strict=True)]
            own_answers = False  # not a pattern for the lane: its verdicts are not the looks'
        if drawn and any(v is not NA and v is not OK for v in results):
            own = Transition(t.before, t.action, ref_after,
                             [e for e in ref_events if not is_chance_report(e)])
            results = [v for _, v in self._composite_filter(
                list(zip(rules, results, strict=True)), own)]
        if states is None:  # the state hooks on the state after
            states = self._state_verdicts(t.after, profile, said_state)
        if self.adopted and any(v is not NA and v is not OK for v in results + states):
            results, states = self._own_fault(t, checks, results, states, ref_after,
                                              ref_events)
            own_answers = False
        # one count for the step's checks and state hooks, in that order
        counted = self._count_step(rules, results + states, bad)
        return (said, counted) if own_answers and counted is not None else None

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

        results = [NA if faulty(v) and faulty(guarded(check, own, profile)) else v
                   for check, v in zip(checks, results, strict=True)]
        states = [NA if faulty(v) and faulty(guarded(hook, ref_after, profile)) else v
                  for hook, v in zip(self.state_fns, states, strict=True)]
        return results, states

    def _bare_verdict(self, bare: CheckFn | None, t: Transition) -> Verdict:
        """An event-reading check's verdict on a step whose events are unknown: its
        state-only form's, or not applicable."""
        if bare is None:
            return NA
        return guarded(bare, Transition(t.before, t.action, t.after, []), self.profile)

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
                ref_verdict = guarded(hooks[rule], ref_step, self.profile)
                if ref_verdict is not NA and ref_verdict is not OK:
                    self.blind.add(rule)
                    verdict = NA
            out.append((rule, verdict))
        return out

    def _weights(self, state: JSON, outcomes: list[JSON], bad: list[tuple[str, str]]) -> None:
        """The chance rules' oracles on the probabilities the engine lists."""
        try:
            listed = [(o["action"], Fraction(str(o["p"]))) for o in outcomes]
        except (KeyError, TypeError, ValueError, ZeroDivisionError):
            bad.append(("ENGINE-ALIVE", "legal outcomes' probabilities are not fractions"))
            return
        for rule, hook in self.weights_hooks:
            self._count(rule, guarded(hook, state, listed, self.profile), bad)

    def _known_acceptance(self, before: JSON, action: JSON, rule: str | None) -> bool:
        """Whether the engine accepting `action` would be a cause already passed over in
        this example: the rules its judges name, or the probe's own rule, all known."""
        would: list[tuple[str, str]] = []
        profile = self.profile
        for judged, judge in self.judge_hooks:
            verdict = guarded(judge, before, action, True, profile)
            if verdict is not NA and verdict is not OK:
                would.append((judged, str(verdict)))
        if would:
            return all_known([], would, self.muted)
        return rule is not None and (rule in self.muted
                                     or f"{rule}|accepted-probe" in self.muted)

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
        """The game's departure models under this profile (fuzz.step.blame), made on first use."""
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
            # a model explaining only replayed over the steps before (fuzz.step.blame:
            # a departure made earlier, seen now) and a model of another rule explaining
            # this step alone: one example cannot tell them apart; charged as any other
            # (below), marked ambiguous for the triage to settle from another example, or
            # from the game played on, that shows one rule alone
            replay_tie = any(e.replayed for e in found) and len({e.rule for e in found}) > 1
            # a model whose rule's own oracle objects too is confirmed by it: first
            objecting = {r for r, _ in bad}
            found = sorted(found, key=lambda e: e.rule not in objecting)
            first = found[0]
            own = next((m for r, m in bad if r == first.rule), None)
            text = plain(own) if own else f"{where}: the engine's state is what {first.text} gives"
            if first.replayed and not own:
                text += (", replayed from where both sides last agreed: a departure made at "
                         "an earlier step, seen only now")
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
            if replay_tie:
                tied = tied | {e.rule for e in found}
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
            f"change of the rules gives the engine's state ({diff(want, got)})")))]


# `Transition(*fields)` without its Python-level `__new__` (the step loop makes one a step)
as_transition: Callable[[tuple[Any, Any, Any, Any]], Transition] = partial(tuple.__new__,
                                                                            Transition)


def _applicable(rules: list[str], verdicts: list[Verdict]
                ) -> tuple[list[str], list[tuple[str, str]]]:
    """(the rules whose verdict applies, the violations as (rule, message)); `rules[i]` is
    `verdicts[i]`'s."""
    return ([rule for rule, v in zip(rules, verdicts, strict=True) if v is not NA],
            [(rule, str(v)) for rule, v in zip(rules, verdicts, strict=True)
             if v is not NA and v is not OK])


def guarded(hook: Callable[..., Verdict], *args: Any) -> Verdict:
    """An oracle's verdict; an engine reply too malformed to read is itself a violation."""
    try:
        return hook(*args)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return Violation(f"cannot read the engine's state, events or action: {exc!r}")


def _answers(said: Sequence[Any], where: list[int], hooks: list[Any],
             *args: Any) -> list[Verdict]:
    """Each hook's verdict: the shared look's answer `said[where[i]]` where it gives one,
    else the hook asked (`where[i]` is -1 where the look answers nothing for it)."""
    if None not in said and -1 not in where:  # it answers every hook asked
        return list(map(said.__getitem__, where))
    return [hook(*args) if i < 0 or said[i] is None else said[i]
            for i, hook in zip(where, hooks, strict=True)]
