"""The probabilities of Flit's chance steps: FLIT-SETUP-AVAILABLE (a square drawn uniformly
among the available ones) and FLIT-NEUTRAL-ADD (a square drawn uniformly from the whole
board, then a neutral with probability 1 in hit_denominator if it is available; or, under
the listing reading, no neutral with (k-1)/k and each available square 1/(k n))."""

from __future__ import annotations

from fractions import Fraction

from gamecert.oracles.base import JSON, NA, OK, Verdict, Violation
from gamecert.oracles.flit.board import available, index
from gamecert.oracles.weights import uniform
from gamecert.spec import Profile

setup_weights = uniform("setup", "set-up squares")


def neutral_weights(state: JSON, outcomes: list[tuple[JSON, Fraction]],
                    profile: Profile) -> Verdict:
    mine = [(a, p) for a, p in outcomes
            if isinstance(a, dict) and a.get("type") in ("neutral", "neutral-list")]
    if not mine:
        return NA
    total = len(state["board"])
    for a, p in mine:
        want = _want(state, a, mine, total, profile)
        if want is not None and p != want:
            return Violation(f"the neutral step's outcome {a} has probability {want}, the "
                             f"engine gives {p}")
    return OK


def _want(state: JSON, a: JSON, mine: list[tuple[JSON, Fraction]], total: int,
          profile: Profile) -> Fraction | None:
    """What FLIT-NEUTRAL-ADD gives outcome `a` (None: not an outcome it gives at all, which
    is the judges' to say)."""
    if a["type"] == "neutral-list":
        k = profile.param("FLIT-NEUTRAL-ADD", "list_denominator")
        squares = sum(1 for b, _ in mine if b.get("at") is not None)
        if a.get("at") is None:
            return Fraction(k - 1, k) if squares else Fraction(1)
        return Fraction(1, k * squares)
    k = profile.param("FLIT-NEUTRAL-ADD", "hit_denominator")
    i = index(state, a.get("at"))
    if i is None:
        return None
    if not available(state, i):
        return None if a.get("hit") else Fraction(1, total)
    return Fraction(1, total * k) if a.get("hit") else Fraction(k - 1, total * k)
