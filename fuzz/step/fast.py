"""The lockstep's fast paths, behind one seam (`FastPaths._judge_now`): steps judged in
batches (`defer`: the steps on which the engine agreed, their oracles asked together by
`finish`) and the lane (what a pattern of the shared looks' answers counts, remembered so
that a step repeating it is counted with one lookup).

The plain way is fuzz.step.judge's `_judge_step`; these paths must give the same counts
and the same findings, in the same order (tests/test_lane.py, tests/test_defer.py and the
games' test_fast.py compare the two). Nothing here drives an engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from gamecert.fuzz.step.finding import JSON, canon, event_rules
from gamecert.fuzz.step.judge import COUNTED_KEPT, Judging
from gamecert.oracles.base import (
    Transition,
)
from gamecert.spec import Profile

# A step for `FastPaths._judge_looked` to judge in full: the step as the oracles see it, the
# draws followed in it, the reference's state and events after it, the engine's state after
# it, and the step's operation index
Waiting = tuple[Transition, list[JSON], JSON, list[JSON], JSON, int]
NO_DRAWS: list[JSON] = []  # a waiting step's draws (none: a step that follows one is judged
# at once); never changed
# Steps whose engine agreed with the reference judged together, at most this many at once,
# by a lockstep made with `defer` (a campaign's, a benchmark's): see `Lockstep.finish`.
AGREED_BATCH = 128


class FastPaths(Judging):
    """Batching (`_wait`, `finish`) and the lane (`_judge_looked`), and the seam that picks
    the lane or the plain judge for a step judged as it is played (`_judge_now`)."""

    defer: int
    lane: dict[tuple[int, ...], tuple[Any, Any, Any, list[str]]] | None
    pending: list[Transition]
    pending_at: list[int]
    pending_events: list[list[JSON]]
    ops: list[JSON]
    ref: Any
    json_of: Any
    ref_json: JSON

    if TYPE_CHECKING:  # the driving side's (fuzz.step.lockstep)
        def _fail(self, bad: list[tuple[str, str]], kind: str, fallback: str,
                  fallback_rule: str = "ENGINE-AGREES", related: Iterable[str] = (), *,
                  expected: JSON = None, got: JSON = None, at: int | None = None) -> bool: ...

    def _judge_now(self, t: Transition, drawn: list[JSON], ref_after: JSON,
                   ref_events: list[JSON], eng_after: JSON, bad: list[tuple[str, str]],
                   bare: bool) -> None:
        """The seam: a step judged as it is played, its violations in `bad`. Through the
        lane when the plan has one (the looks, then what their answers count), else the
        plain way (`Judging._judge_step`); `bare`: the engine has no events and its state
        differs, so the event-reading oracles judge by their state-only form."""
        if self.lane is not None and not bare:
            self._judge_looked([t], [(t, drawn, ref_after, ref_events, eng_after,
                                      len(self.ops) - 1)].__getitem__, bad)
        else:
            rules, checks, where = self.plan.checks_for(t.action)
            self._judge_step(t, rules, checks, where, bad, drawn, ref_after, ref_events,
                             bare=bare)

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
                seen = self._judge_step(t, rules, checks, where, bad, drawn, ref_after,
                                        ref_events, said_all[i], state_all[i], asked_all[i])
                if seen is not None and len(lane) < COUNTED_KEPT and _all_said(seen[0], where) \
                        and (asked_all[i] is not None
                             or _all_said(state_all[i], self.state_where)):
                    # every check's verdict was the step look's answer, and every state
                    # hook's the state look's (or the hook's own OK or NA, in the key): the
                    # same answers, the same count
                    lane[keys[i]] = (rules, seen[0], state_all[i], seen[1])
                if bad and bad_out is None:
                    self._fail(bad, "violation", f"after {canon(t.action)}",
                               related=event_rules(ref_events), expected=ref_after,
                               got=eng_after, at=op)
            upto = len(steps)
        finally:  # a finding raised: what the steps before it counted is counted
            _count_hits(applied, [known for known in known_all[:upto] if known is not None])


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
    `answers`): no hook was asked."""
    return said is not None and -1 not in where and all(said[i] is not None for i in where)
