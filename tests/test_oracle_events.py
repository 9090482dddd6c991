"""What each oracle reads: a check that does not declare `reads_events` judges a step the
same with or without its events, so it can judge an engine that sends none (`no_events`)
on a step whose state differs from the reference's; a check that reads them is not asked
there, and its state-only form (`bare`), where it has one, never objects to the
reference's own steps.

The steps are the reference's random games under every profile, and the same steps with
the state after taken from the step after (a state the rules do not give), so that
violations, not only passes, are compared.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from gamecert.oracles import oracles_for
from gamecert.oracles.base import Transition
from gamecert.spec import games, load_catalogue
from tests.random_play import random_steps

CASES = [(g, p) for g in games() for p in load_catalogue(g).profiles]


def _verdict(check: Any, t: Transition, profile: Any) -> str:
    try:
        return str(check(t, profile))
    except Exception as exc:  # a check that cannot read the step: its own answer
        return f"raises {type(exc).__name__}"


def _steps(game: str, profile_id: str) -> list[Transition]:
    steps = random_steps(game, profile_id, seed=7, games=2, limit=300)
    # each step again with the state after the next step: a state the rules do not give
    skewed = [Transition(a.before, a.action, b.after, a.events) for a, b in pairwise(steps)]
    return steps + skewed[::3]


@pytest.mark.parametrize(("game", "profile_id"), CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_a_check_that_does_not_read_events_judges_without_them(game: str,
                                                                profile_id: str) -> None:
    profile = load_catalogue(game).profile(profile_id)
    plain = [o for o in oracles_for(game) if o.check is not None and not o.reads_events]
    wrong: dict[str, str] = {}
    for t in _steps(game, profile_id):
        bare = Transition(t.before, t.action, t.after, [])
        for o in plain:
            if o.rule in wrong:
                continue
            with_events, without = _verdict(o.check, t, profile), _verdict(o.check, bare,
                                                                          profile)
            if with_events != without:
                wrong[o.rule] = f"{with_events[:120]!r} with events, {without[:120]!r} without"
    assert not wrong, ("these checks read the step's events: declare reads_events "
                       f"(and a bare form where the rule allows one): {wrong}")


@pytest.mark.parametrize(("game", "profile_id"), CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_a_state_only_form_passes_the_reference(game: str, profile_id: str) -> None:
    profile = load_catalogue(game).profile(profile_id)
    forms = [o for o in oracles_for(game) if o.bare is not None]
    for t in random_steps(game, profile_id, seed=11, games=2, limit=300):
        bare = Transition(t.before, t.action, t.after, [])
        for o in forms:
            verdict = _verdict(o.bare, bare, profile)
            assert verdict in ("ok", "not applicable"), (o.rule, t.action, verdict)
