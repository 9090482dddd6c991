"""The oracle shape shared by every game.

An oracle belongs to one rule id and looks at canonical JSON only, never at an engine's
internals, so it judges any engine. It may have up to five hooks:

* `state(s)`: a single state the engine produced (the start state included);
* `check(t)`: a transition `t` (state before, action, state after, events) that the engine
  made;
* `judge(state, action, accepted)`: the engine accepted or refused `action` in `state`;
* `referee(state, text, action)`: the engine's referee turned a bot's raw `text` into
  `action`;
* `listed(state, action, listed)`: the engine's `legal` listing includes (or leaves out)
  `action`, for games whose listing is not simply what the engine accepts (Bot Wars lists
  the lists of one valid move but accepts any list). A game without it has its listings
  judged by `judge`.
* `weights(state, outcomes)`: the probabilities the engine gives its chance outcomes (each
  `(action, Fraction)`), when they differ from the reference's: a chance rule's oracle says
  whether each is what its rule's draw gives. Which outcomes belong in the set is `judge`'s.

Each hook answers `NA` (the rule does not apply here), `OK`, or a `Violation`. Rule
coverage counts the applicable answers, so `NA` must mean "not applicable", not "fine".

`on` says, for a `check` that judges only some kinds of step, which: the kinds of action
(as the game's `action_kind` names them, from the action alone) at whose steps it can
answer anything but `NA`. The lockstep does not ask it about any other step, which saves a
call per oracle per step and changes no verdict: the game's tests show each such check
answering `NA` on every step of another kind, whatever the engine replied.

`within` says, for an oracle of one stage of a game (Carcassonne's farms, its tower), in
which profiles any of its hooks can answer anything but `NA`; a lockstep in another profile
does not ask it at all (tests/test_oracle_on.py shows every hook answering `NA` there).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from gamecert.spec import Profile

JSON = Any


class Violation(str):
    """A broken rule; the text says what was seen and what the rule wants."""


class _Mark(str):
    pass


NA = _Mark("not applicable")
OK = _Mark("ok")
Verdict = _Mark | Violation


class Transition(NamedTuple):
    """One step: the state before, the action, the state after and the events. Immutable;
    a named tuple rather than a frozen dataclass because the lockstep makes one per step
    and a tuple is made in half the time."""

    before: JSON
    action: JSON
    after: JSON
    events: list[JSON]


StateFn = Callable[[JSON, Profile], Verdict]
CheckFn = Callable[[Transition, Profile], Verdict]
JudgeFn = Callable[[JSON, JSON, bool, Profile], Verdict]
RefereeFn = Callable[[JSON, str, JSON, Profile], Verdict]
ListedFn = Callable[[JSON, JSON, bool, Profile], Verdict]
WeightsFn = Callable[[JSON, list[tuple[JSON, Fraction]], Profile], Verdict]


@dataclass(frozen=True)
class Oracle:
    rule: str
    state: StateFn | None = None
    check: CheckFn | None = None
    judge: JudgeFn | None = None
    referee: RefereeFn | None = None
    listed: ListedFn | None = None
    weights: WeightsFn | None = None
    on: frozenset[str] | None = None  # the action kinds `check` judges; None: every step
    within: Callable[[Profile], bool] | None = None  # the profiles it judges; None: all
    # Whether `check` reads the step's events. For an engine without events (`no_events`)
    # the harness hands it the reference's, which describe the reference's state: on a
    # step whose state differs it is not asked, and `bare`, its state-only form (the same
    # transition with no events), is asked instead where the rule allows one.
    reads_events: bool = False
    bare: CheckFn | None = None


ActionKindFn = Callable[[JSON], str]
# (rules, verdicts): `verdicts(t, profile)[i]` is what `rules[i]`'s check answers, or None
Prejudge = tuple[tuple[str, ...], Callable[[Transition, Profile], tuple[Verdict | None, ...]]]
# (rules, verdicts): `verdicts(state, profile)[i]` is what `rules[i]`'s state hook answers,
# or None
StatePrejudge = tuple[tuple[str, ...], Callable[[JSON, Profile], tuple[Verdict | None, ...]]]
Answers = tuple[Verdict | None, ...]


def one_per_value(kept: int = 4096) -> Callable[[Answers], Answers]:
    """For a game's shared look: a function that hands out one tuple object per value of
    the answer tuples it is given (they hold only OK, NA and None, so equal tuples are the
    same answers). The lockstep remembers what a step counts by the identity of the looks'
    answers (`fuzz.step.lockstep`'s lane). Past `kept` values, answers pass as they come: only
    the lane misses them."""
    known: dict[Answers, Answers] = {}

    def one(answers: Answers) -> Answers:
        return known.setdefault(answers, answers) if len(known) < kept else answers

    return one


def checks_by_kind(oracles: Iterable[Oracle], kinds: Iterable[str]
                   ) -> dict[str, list[tuple[str, CheckFn]]]:
    """For each action kind, the (rule, check) pairs to ask at a step of that kind: every
    check without `on`, and those whose `on` names it (in the oracles' order)."""
    pairs = [(o.rule, o.check, o.on) for o in oracles if o.check is not None]
    return {kind: [(rule, fn) for rule, fn, on in pairs if on is None or kind in on]
            for kind in kinds}


def expect(condition: bool, message: str) -> Verdict:
    """OK when `condition` holds, else a violation with `message`."""
    return OK if condition else Violation(message)


# How an oracle names which of its rule's distinct departures a violation is (its cause):
# two violations of one rule with different causes are two findings, and a campaign keeps
# hunting under a rule after its first finding for the causes it has not met. A violation
# with no cause named is its rule's one cause.
_CAUSE_RE = re.compile(r" \[cause: ([a-z0-9-]+)((?: = [a-z0-9-]+)*)\]$")


def cause(tag: str, message: str, aliases: Iterable[str] = ()) -> Violation:
    """A violation of one named departure of its rule (`tag`: lowercase words and dashes).
    `aliases`: other names the same departure goes by, seen through another door (the
    oracle's own name for it, where a departure model named it; "rule" for the rule's
    unnamed cause): a finding under any of them is the same departure."""
    also = "".join(f" = {a}" for a in dict.fromkeys(aliases) if a != tag)
    return Violation(f"{message} [cause: {tag}{also}]")


def cause_of(message: str) -> str | None:
    """The cause a `cause` violation names, or None."""
    found = _CAUSE_RE.search(message)
    return found.group(1) if found else None


def aliases_of(message: str) -> list[str]:
    """The other names a `cause` violation gives its departure (see `cause`)."""
    found = _CAUSE_RE.search(message)
    return found.group(2).split(" = ")[1:] if found else []


# How an oracle says that one step cannot tell which of several rules an engine broke (each
# of them would explain what it did): every one of those rules' oracles reports it, with
# this mark, and the campaign's triage charges it to whichever of them another finding
# shows broken alone.
_AMBIGUOUS = "one step cannot tell which of {} is broken"
_AMBIGUOUS_RE = re.compile(r"one step cannot tell which of ([A-Z0-9-]+(?:, [A-Z0-9-]+)+) is "
                           r"broken")


def ambiguous(rules: Iterable[str], message: str) -> Violation:
    """A violation that any one of `rules` explains (see `alternatives`)."""
    return Violation(f"{message} ({_AMBIGUOUS.format(', '.join(rules))})")


def alternatives(message: str) -> frozenset[str]:
    """The rules an `ambiguous` violation names (empty for any other message)."""
    found = _AMBIGUOUS_RE.search(message)
    return frozenset(found.group(1).split(", ")) if found else frozenset()


def plain(message: str) -> str:
    """A violation's words without its marks (its named cause, its ambiguity): for a
    message charged anew, to a cause that a departure model names."""
    text = _CAUSE_RE.sub("", message)
    return re.sub(r" \(" + _AMBIGUOUS_RE.pattern + r"\)", "", text)
