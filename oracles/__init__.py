"""Executable invariants, one or more per rule id, per game.

Convention: `oracles.<game>` exports `ORACLES`, a list of `Oracle`, and, where some of its
checks say `on` which kinds of step they judge, `action_kind(action) -> str`, the kind of
an action from the action alone. It may export `PREJUDGE = (rules, verdicts)`: a look at a
whole step, shared by several checks, that answers `verdicts(t, profile)[i]` for
`rules[i]` with exactly what that rule's check would answer, or None (ask the check). The
lockstep then asks only the checks left unanswered, one call for the step instead of one
per rule. `STATE_PREJUDGE = (rules, verdicts)` does the same for the state hooks:
`verdicts(state, profile)[i]` is exactly what `rules[i]`'s state hook answers, or None.
Either answers OK or NA only: a violation, and its message, always comes from the hook.
"""

from __future__ import annotations

import importlib
from typing import Any

from gamecert.oracles.base import (
    NA,
    OK,
    ActionKindFn,
    Oracle,
    Prejudge,
    StatePrejudge,
    Transition,
    Verdict,
    Violation,
)


def oracles_for(game: str) -> list[Oracle]:
    try:
        module = importlib.import_module(f"gamecert.oracles.{game}")
    except ModuleNotFoundError:
        raise KeyError(f"no oracles for game {game!r}") from None
    return list(module.ORACLES)


def _optional(game: str, name: str) -> Any:
    """The game's oracle module's `name`, or None (no such module, or no such name)."""
    try:
        module = importlib.import_module(f"gamecert.oracles.{game}")
    except ModuleNotFoundError:
        return None
    return getattr(module, name, None)


def prejudge_for(game: str) -> Prejudge | None:
    """The game's `PREJUDGE`, or None."""
    found: Prejudge | None = _optional(game, "PREJUDGE")
    return found


def state_prejudge_for(game: str) -> StatePrejudge | None:
    """The game's `STATE_PREJUDGE`, or None."""
    found: StatePrejudge | None = _optional(game, "STATE_PREJUDGE")
    return found


def action_kind_for(game: str) -> ActionKindFn | None:
    """The game's `action_kind`, or None for a game whose checks all judge every step."""
    kind: ActionKindFn | None = _optional(game, "action_kind")
    return kind


__all__ = ["NA", "OK", "Oracle", "Transition", "Verdict", "Violation", "action_kind_for",
           "oracles_for", "prejudge_for", "state_prejudge_for"]
