"""A check that says `on` which kinds of step it judges answers NA at every other step.

The lockstep does not ask such a check about a step of another kind (issue 15: a leaner
lockstep), so this is what makes skipping it change no verdict. Each check is shown steps
of random games of every kind it leaves out, with the reply (state after, events) of that
step and with replies of other steps swapped in: an engine can reply anything, so the
answer must come from the action's kind alone, before the reply is read.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import Coverage, Lockstep
from gamecert.oracles import action_kind_for, oracles_for, prejudge_for, state_prejudge_for
from gamecert.oracles.base import NA, Oracle, Transition, checks_by_kind
from gamecert.reference_engine import reference_game, reference_session
from gamecert.spec import load_catalogue
from tests.random_play import random_steps

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")


def _transitions(game_name: str, profile_id: str | None, seed: int,
                 games: int) -> list[Transition]:
    return random_steps(game_name, profile_id, seed, games, limit=4000)


def _profiles(game: str) -> list[str]:
    return list(load_catalogue(game).profiles)


@pytest.mark.parametrize("game", GAMES)
def test_checks_answer_na_off_their_kinds(game: str) -> None:
    oracles = [o for o in oracles_for(game) if o.on is not None]
    kind_of = action_kind_for(game)
    if not oracles:
        assert kind_of is None or callable(kind_of)
        return
    assert kind_of is not None, f"{game}: checks say `on` but the game has no action_kind"
    rng = random.Random(5)
    asked = 0
    for profile_id in _profiles(game):
        profile = load_catalogue(game).profile(profile_id)
        steps = _transitions(game, profile_id, seed=7, games=2)
        for o in oracles:
            assert o.check is not None, f"{o.rule}: `on` without a check"
        for t in steps:
            kind = kind_of(t.action)
            other = steps[rng.randrange(len(steps))]
            for o in oracles:
                if kind in (o.on or ()):
                    continue
                for reply in (t, other):
                    shown = Transition(t.before, t.action, reply.after, reply.events)
                    assert o.check(shown, profile) is NA, (  # type: ignore[misc]
                        f"{o.rule} judges a {kind!r} step but says it judges only "
                        f"{sorted(o.on or ())}")
                    asked += 1
    assert asked > 0


def test_checks_by_kind_keeps_every_check_without_on_in_order() -> None:
    def a(t: Transition, p: Any) -> Any:
        return NA

    def b(t: Transition, p: Any) -> Any:
        return NA

    oracles = [Oracle("R-A", check=a), Oracle("R-B", check=b, on=frozenset({"move"})),
               Oracle("R-C", state=lambda s, p: NA)]
    got = checks_by_kind(oracles, ["move", "pass"])
    assert got == {"move": [("R-A", a), ("R-B", b)], "pass": [("R-A", a)]}


def _plain(check: Any) -> Any:
    """`check` behind a wrapper of its own: the lockstep asks it as it is."""
    if check is None:
        return None
    return lambda t, p: check(t, p)


def _plain_state(hook: Any) -> Any:
    """`hook` behind a wrapper of its own: no shared state prejudgement stands in for it."""
    if hook is None:
        return None
    return lambda s, p: hook(s, p)


@pytest.mark.parametrize("game", GAMES)
def test_lockstep_coverage_is_the_same_with_every_check_asked(game: str) -> None:
    """The same recorded games through two lockstep runs, one asking every check at every
    step (no `on`, no `within`, and each check and state hook wrapped, so that no shared
    prejudgement stands in for it): each rule's count of applicable verdicts is the same."""
    profile = load_catalogue(game).profile()
    steps = _transitions(game, None, seed=3, games=1)
    counts = []
    for every in (False, True):
        oracles = oracles_for(game)
        if every:
            oracles = [Oracle(o.rule, _plain_state(o.state), _plain(o.check), o.judge,
                              o.referee, o.listed, o.weights) for o in oracles]
        cov = Coverage()
        ls = Lockstep(reference_game(game), InProcessEngine(reference_session(game)), profile,
                      oracles, coverage=cov)
        ls.start({"kind": "new_game"})
        for t in steps:
            ls.step(t.action)
        counts.append(dict(cov.applied))
        assert every or ls.action_kind is action_kind_for(game) or all(
            o.on is None for o in oracles)
        assert (ls.prejudge is None) == (every or prejudge_for(game) is None)
        assert (ls.state_prejudge is None) == (every or state_prejudge_for(game) is None)
    assert counts[0] == counts[1]


@pytest.mark.parametrize("game", GAMES)
def test_oracles_within_some_profiles_answer_na_in_the_others(game: str) -> None:
    """An oracle that says `within` which profiles it judges answers NA, from every hook, in
    any other profile: on its states, its steps with their own replies and with replies from
    games of the other profiles (a reply from a tower game shown in a game without towers),
    and on each action accepted or refused."""
    oracles = [o for o in oracles_for(game) if o.within is not None]
    profiles = _profiles(game)
    steps = {p: _transitions(game, p, seed=11, games=1) for p in profiles}
    replies = [t for p in profiles for t in steps[p][::7]]
    rng = random.Random(3)
    asked = 0
    for o in oracles:
        outside = [p for p in profiles
                   if not o.within(load_catalogue(game).profile(p))]  # type: ignore[misc]
        assert len(outside) < len(profiles), f"{o.rule} is within no profile"
        for profile_id in outside:
            profile = load_catalogue(game).profile(profile_id)
            for t in steps[profile_id][::3]:
                other = replies[rng.randrange(len(replies))]
                verdicts = []
                if o.state:
                    verdicts += [o.state(t.after, profile), o.state(other.after, profile)]
                if o.check:
                    verdicts += [o.check(t, profile), o.check(
                        Transition(t.before, t.action, other.after, other.events), profile)]
                if o.judge:
                    verdicts += [o.judge(t.before, t.action, ok, profile) for ok in (True, False)]
                    verdicts += [o.judge(t.before, other.action, ok, profile)
                                 for ok in (True, False)]
                assert all(v is NA for v in verdicts), (o.rule, profile_id, verdicts)
                asked += len(verdicts)
    assert asked > 0 or not oracles
