"""Chance rules' probabilities: the `weights` hooks shared by the games.

A chance rule says how an outcome is drawn, not only which outcomes there are. These hooks
judge the probabilities an engine lists for its outcomes (`Oracle.weights`); which outcomes
belong in the listing stays the `judge` hooks' business, so a hook here takes the engine's
set as given and asks only whether each weight is what the rule's draw gives that set.
"""

from __future__ import annotations

from collections.abc import Callable
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


def by_copies(kind: str, key: str, pile_of: Callable[[JSON], JSON], what: str) -> WeightsFn:
    """A hook for a rule that draws one copy at random from a pile (`pile_of(state)`: a
    mapping from an outcome's `key` to the copies left, or None where the rule does not
    draw): among the listed outcomes of type `kind`, each has its copies over theirs."""

    def hook(state: JSON, outcomes: list[tuple[JSON, Fraction]], profile: Profile) -> Verdict:
        mine = [(a, p) for a, p in outcomes if isinstance(a, dict) and a.get("type") == kind]
        pile = pile_of(state) if mine else None
        if not isinstance(pile, dict):
            return NA
        total = sum(int(pile.get(a.get(key), 0)) for a, _ in mine)
        if total <= 0:
            return NA  # none of them is in the pile: which outcomes belong is the judges'
        for a, p in mine:
            want = Fraction(int(pile.get(a.get(key), 0)), total)
            if p != want:
                return Violation(f"{what}: each is drawn with its copies left over all "
                                 f"listed ({total}); {a.get(key)} has {want}, the engine "
                                 f"gives {p}")
        return OK

    return hook


def _short(action: JSON) -> str:
    if not isinstance(action, dict):
        return str(action)
    what = {k: v for k, v in action.items() if k != "type"}
    return f"{action.get('type')} {what}"
