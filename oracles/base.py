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

Each hook answers `NA` (the rule does not apply here), `OK`, or a `Violation`. Rule
coverage counts the applicable answers, so `NA` must mean "not applicable", not "fine".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamecert.spec import Profile

JSON = Any


class Violation(str):
    """A broken rule; the text says what was seen and what the rule wants."""


class _Mark(str):
    pass


NA = _Mark("not applicable")
OK = _Mark("ok")
Verdict = _Mark | Violation


@dataclass(frozen=True)
class Transition:
    before: JSON
    action: JSON
    after: JSON
    events: list[JSON]


StateFn = Callable[[JSON, Profile], Verdict]
CheckFn = Callable[[Transition, Profile], Verdict]
JudgeFn = Callable[[JSON, JSON, bool, Profile], Verdict]
RefereeFn = Callable[[JSON, str, JSON, Profile], Verdict]
ListedFn = Callable[[JSON, JSON, bool, Profile], Verdict]


@dataclass(frozen=True)
class Oracle:
    rule: str
    state: StateFn | None = None
    check: CheckFn | None = None
    judge: JudgeFn | None = None
    referee: RefereeFn | None = None
    listed: ListedFn | None = None


def expect(condition: bool, message: str) -> Verdict:
    """OK when `condition` holds, else a violation with `message`."""
    return OK if condition else Violation(message)
