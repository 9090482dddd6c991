"""A game's `STATE_PREJUDGE` answers for its state hooks in one look (issue 15): each answer
it gives is exactly the hook's own verdict, OK or NA only, on states of random games of every
profile and on states no engine should send (parts swapped in from other states, parts
missing, parts of the wrong type). The lockstep takes its answers for the game's own hooks
only, and asks the hook wherever it answers None."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import Coverage, Lockstep
from gamecert.oracles import oracles_for, state_prejudge_for
from gamecert.oracles.base import NA, OK, Oracle
from gamecert.reference_engine import reference_game, reference_session
from gamecert.spec import load_catalogue
from tests.random_play import random_states

GAMES = ("flit", "botwars", "carcassonne", "kingdomino")
HAVE = [g for g in GAMES if state_prejudge_for(g) is not None]


def _verdict(hook: Any, state: Any, profile: Any) -> Any:
    try:
        return hook(state, profile)
    except Exception as exc:  # the hook's own failure is part of its answer
        return type(exc)


def _odd_states(states: list[Any], rng: random.Random) -> list[Any]:
    """States with one part swapped for another state's, removed, or of the wrong type."""
    out: list[Any] = []
    for s in states[::5]:
        key = rng.choice(sorted(s))
        other = states[rng.randrange(len(states))]
        for value in (other.get(key), None, "x", [], {}, -1):
            out.append({**s, key: value})
        out.append({k: v for k, v in s.items() if k != key})
    return out


def test_kingdomino_has_one() -> None:
    assert "kingdomino" in HAVE


@pytest.mark.parametrize("game", HAVE)
def test_each_answer_is_the_hooks_own(game: str) -> None:
    rules, fn = state_prejudge_for(game)  # type: ignore[misc]
    hooks = {o.rule: o.state for o in oracles_for(game) if o.state is not None}
    assert set(rules) <= set(hooks), "an answer for a rule with no state hook"
    rng = random.Random(11)
    answered = 0
    for profile_id in load_catalogue(game).profiles:
        profile = load_catalogue(game).profile(profile_id)
        states = random_states(game, profile_id, seed=5, games=2)
        for s in states + _odd_states(states, rng):
            try:
                said = fn(s, profile)
            except Exception:  # the lockstep then asks each hook
                continue
            assert len(said) == len(rules)
            for rule, answer in zip(rules, said, strict=True):
                if answer is None:
                    continue
                assert answer is OK or answer is NA, f"{rule}: only OK or NA, not {answer}"
                assert _verdict(hooks[rule], s, profile) is answer, (rule, s)
                answered += 1
    assert answered > 0


def _run(game: str, oracles: list[Oracle]) -> tuple[Lockstep, dict[str, int]]:
    profile = load_catalogue(game).profile()
    ls = Lockstep(reference_game(game), InProcessEngine(reference_session(game)), profile,
                  oracles, coverage=Coverage())
    ls.start({"kind": "new_game", "seed": 2})
    rng = random.Random(2)
    g = ls.game
    for _ in range(40):
        if not ls.live:
            break
        a = g.random_chance(ls.ref, rng) if g.current(ls.ref) == 0 else g.random_action(
            ls.ref, rng)
        ls.step(g.action_to_json(ls.ref, a))
    return ls, dict(ls.coverage.applied)


def test_the_lockstep_takes_its_answers_for_the_games_own_hooks_only(monkeypatch: Any) -> None:
    """Flit, given a prejudgement that (wrongly, to make it visible) answers NA for one rule:
    the lockstep counts that rule no more with the game's own hook, and as before with a
    hook of another's; an answer of None asks the hook."""
    module = importlib.import_module("gamecert.oracles.flit")
    mine = next(o for o in oracles_for("flit") if o.state is not None)
    _, plain = _run("flit", oracles_for("flit"))
    assert plain.get(mine.rule, 0) > 0

    monkeypatch.setattr(module, "STATE_PREJUDGE", ((mine.rule,), lambda s, p: (NA,)),
                        raising=False)
    ls, told = _run("flit", oracles_for("flit"))
    assert ls.state_prejudge is not None and told.get(mine.rule, 0) == 0

    theirs = [Oracle(o.rule, (lambda s, p, h=o.state: h(s, p)) if o.state else None, o.check,
                     o.judge, o.referee, o.listed, o.weights, o.on, o.within)
              for o in oracles_for("flit")]
    ls, asked = _run("flit", theirs)
    assert ls.state_prejudge is None and asked == plain

    monkeypatch.setattr(module, "STATE_PREJUDGE", ((mine.rule,), lambda s, p: (None,)),
                        raising=False)
    _, none = _run("flit", oracles_for("flit"))
    assert none == plain
