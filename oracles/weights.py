"""Chance rules' probabilities: the `weights` hooks shared by the games.

A chance rule says how an outcome is drawn, not only which outcomes there are. These hooks
judge the probabilities an engine lists for its outcomes (`Oracle.weights`); which outcomes
belong in the listing stays the `judge` hooks' business, so a hook here takes the engine's
set as given and asks only whether each weight is what the rule's draw gives that set.
"""

from __future__ import annotations

from fractions import Fraction

from gamecert.oracles.base import JSON, NA, OK, Verdict, Violation, WeightsFn
from gamecert.spec import Profile


def uniform(kind: str, what: str) -> WeightsFn:
    """A hook for a rule that draws uniformly among the listed outcomes of type `kind`
    (`what` names them in a message): each has 1/n."""

    def hook(state: JSON, outcomes: list[tuple[JSON, Fraction]], profile: Profile) -> Verdict:
        mine = [(a, p) for a, p in outcomes if isinstance(a, dict) and a.get("type") == kind]
        if not mine:
            return NA
        want = Fraction(1, len(mine))
        wrong = [(a, p) for a, p in mine if p != want]
        if not wrong:
            return OK
        a, p = wrong[0]
        return Violation(f"{len(mine)} {what} are drawn uniformly, 1/{len(mine)} each; the "
                         f"engine gives {_short(a)} {p} ({len(wrong)} weights differ)")

    return hook


def _short(action: JSON) -> str:
    at = action.get("at") if isinstance(action, dict) else None
    return f"{action.get('type')} at {at}" if isinstance(action, dict) else str(action)
