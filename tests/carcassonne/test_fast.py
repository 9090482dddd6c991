"""Carcassonne's shared looks (`oracles/carcassonne/fast.py`, issue 15) answer exactly what
the hooks and checks they stand in for answer: on every state and step of random games of
every profile, with the JSON shared between steps as the lockstep builds it
(`observe_next`) and fresh (nothing shared, as an engine's own reply), and on corrupted
states and steps (parts swapped for another state's, removed, of the wrong type; events
altered) met in between, so that a remembered answer is put to the test on them too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamecert.fuzz.engines import InProcessEngine
from gamecert.fuzz.lockstep import Coverage, Lockstep
from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK, Oracle, Transition
from gamecert.oracles.carcassonne import fast
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue
from tests.random_play import random_states

PROFILES = list(load_catalogue("carcassonne").profiles)
ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def shared_steps(profile_id: str, seed: int, games: int = 1) -> list[Transition]:
    """The steps of random games with their JSON built as the lockstep builds its
    reference's: each `after` from the `before` (`observe_next`, unchanged parts shared),
    and each step's `after` the next step's `before`."""
    game = reference_game("carcassonne")
    profile = load_catalogue("carcassonne").profile(profile_id)
    rng = random.Random(seed)
    out: list[Transition] = []
    for _ in range(games):
        s = game.initial(profile)
        seen = game.observe(s)
        while game.current(s) != TERMINAL:
            a = (game.random_chance(s, rng) if game.current(s) == CHANCE  # type: ignore[attr-defined]
                 else game.random_action(s, rng))  # type: ignore[attr-defined]
            action = game.action_to_json(s, a)
            nxt, events = game.apply(s, a)
            after = game.observe_next(s, seen, nxt)  # type: ignore[attr-defined]
            out.append(Transition(seen, action, after, list(events)))
            s, seen = nxt, after
    return out


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except ERRORS as exc:
        return type(exc)


def odd_states(states: list[Any], rng: random.Random, every: int = 7) -> list[Any]:
    """States with one part swapped for another state's (an older object: what a memo keyed
    by identity must not be fooled by), removed, or of the wrong type."""
    out: list[Any] = []
    for s in states[::every]:
        key = rng.choice(sorted(s))
        other = states[rng.randrange(len(states))]
        for value in (other.get(key), None, "x", [], {}, -1, 999):
            out.append({**s, key: value})
        out.append({k: v for k, v in s.items() if k != key})
        out.append({**s, "hands": [[*h, "TO1"] for h in s["hands"]]})
        out.append({**s, "deck": {**s["deck"], "ZZ": 0}})
    return out


def _state_hooks() -> dict[str, Any]:
    return {o.rule: o.state for o in oracles_for("carcassonne") if o.state is not None}


def _check_states(states: list[Any], profile: Any) -> tuple[int, int]:
    """Ask the prejudgement and then each hook, state after state: (answers, violations
    seen by the hooks on those states)."""
    hooks = _state_hooks()
    answered = bad = 0
    for s in states:
        try:
            said = fast.state_verdicts(s, profile)
        except ERRORS:
            continue
        assert len(said) == len(fast.STATE_RULES)
        for rule, answer in zip(fast.STATE_RULES, said, strict=True):
            own = _outcome(hooks[rule], s, profile)
            if answer is None:
                bad += own is not OK and own is not NA
                continue
            assert answer is OK or answer is NA, (rule, answer)
            assert own is answer, (rule, own, answer)
            answered += 1
    return answered, bad


def test_the_rules_answered_are_state_hooks() -> None:
    assert set(fast.STATE_RULES) <= set(_state_hooks())
    assert len(set(fast.STATE_RULES)) == len(fast.STATE_RULES)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_state_answers_on_shared_json_are_the_hooks_own(profile_id: str) -> None:
    profile = load_catalogue("carcassonne").profile(profile_id)
    steps = shared_steps(profile_id, seed=3)
    states = [steps[0].before] + [t.after for t in steps]
    assert sum(a is b for t in steps for a, b in zip(t.before.values(), t.after.values(),
                                                       strict=False)) > len(steps)
    answered, _ = _check_states(states, profile)
    assert answered > 5 * len(states)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_state_answers_on_fresh_json_are_the_hooks_own(profile_id: str) -> None:
    profile = load_catalogue("carcassonne").profile(profile_id)
    states = random_states("carcassonne", profile_id, seed=4)
    answered, _ = _check_states(states, profile)
    assert answered > 5 * len(states)


@pytest.mark.parametrize("profile_id", PROFILES)
def test_state_answers_with_corrupted_states_in_between(profile_id: str) -> None:
    """Shared states with corrupted ones after them (sharing their parts) and the states
    going on after those: every answer is the hook's own, violations left to the hooks."""
    profile = load_catalogue("carcassonne").profile(profile_id)
    rng = random.Random(5)
    steps = shared_steps(profile_id, seed=5)
    states = [steps[0].before] + [t.after for t in steps]
    mixed: list[Any] = []
    for i, s in enumerate(states):
        mixed.append(s)
        if i % 7 == 3:
            mixed += odd_states([s, *states[: i + 1]], rng, every=10_000)
            mixed.append(s)  # the state again after the odd ones
    answered, bad = _check_states(mixed, profile)
    assert answered > 5 * len(states) and bad > 10


@pytest.mark.parametrize("profile_id", PROFILES)
def test_a_lockstep_counts_the_same_with_and_without_the_shared_looks(
        profile_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lockstep run of random games counts every rule the same whether the game's
    prejudgements answer or every hook is asked (the hooks wrapped: not the game's own)."""
    def run(oracles: list[Oracle]) -> dict[str, int]:
        game = reference_game("carcassonne")
        profile = load_catalogue("carcassonne").profile(profile_id)
        cov = Coverage()
        ls = Lockstep(game, InProcessEngine(reference_session("carcassonne")), profile,
                      oracles, coverage=cov)
        rng = random.Random(8)
        for seed in (1, 2):
            ls.start({"kind": "new_game", "seed": seed})
            while ls.live:
                s = ls.ref
                a = (game.random_chance(s, rng) if game.current(s) == CHANCE  # type: ignore[attr-defined]
                     else game.random_action(s, rng))  # type: ignore[attr-defined]
                ls.step(game.action_to_json(s, a))
        return dict(cov.applied)

    own = oracles_for("carcassonne")
    wrapped = [Oracle(o.rule, (lambda s, p, h=o.state: h(s, p)) if o.state else None,
                      (lambda t, p, h=o.check: h(t, p)) if o.check else None,
                      o.judge, o.referee, o.listed, o.weights, o.on, o.within) for o in own]
    assert run(own) == run(wrapped)
