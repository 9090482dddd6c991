"""Bot Wars rule predicates written with operators only.

The same function runs on Python ints (the engine) and on z3 terms (the proofs in
tests/botwars), so a proof is about the engine's own code, not a copy of it. Only `+`, `*`,
comparisons, `|` and `&` are used: they mean the same on ints and bools as on z3 integer and
Boolean terms. Folds start from the first term because `False | z3_term` is not defined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Neighbour = tuple[Any, Any]
"""(is_enemy, enemies_of_it) for one adjacent square: is_enemy is 1 or 0 (an int, so it can
multiply), enemies_of_it is the number of enemy botlets adjacent to that square's botlet."""


def enemy_count(neighbours: Sequence[Neighbour]) -> Any:
    """e(b): how many enemy botlets are adjacent."""
    total: Any = 0
    for is_enemy, _ in neighbours:
        total = total + is_enemy
    return total


def loses_fight(own: Any, is_enemy: Any, theirs: Any) -> Any:
    """BOTWARS-BATTLE: the fight with this neighbour is lost when it is an enemy with no more
    adjacent enemies than us. `is_enemy * (own - theirs + 1) > 0` says both at once."""
    return is_enemy * (own - theirs + 1) > 0


def no_stronger(own: Any, is_enemy: Any, theirs: Any) -> Any:
    """True for a non-enemy, else `theirs <= own` (is_enemy is 0 or 1)."""
    return is_enemy * theirs <= own


def dies(neighbours: Sequence[Neighbour], every: bool = False) -> Any:
    """BOTWARS-BATTLE: does the botlet with these neighbours die?

    every=False (lose-any-fight): some adjacent enemy n has e(n) <= e(b).
    every=True (lose-every-fight): e(b) >= 1 and every adjacent enemy n has e(n) <= e(b).
    """
    own = enemy_count(neighbours)
    if not neighbours:
        return own < 0  # False, in the caller's own kind of term
    if every:
        out: Any = own > 0
        for is_enemy, theirs in neighbours:
            out = out & no_stronger(own, is_enemy, theirs)
        return out
    first, *rest = neighbours
    out = loses_fight(own, first[0], first[1])
    for is_enemy, theirs in rest:
        out = out | loses_fight(own, is_enemy, theirs)
    return out
