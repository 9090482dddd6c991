"""The lockstep builds its reference's canonical JSON after a step from the JSON before it
(`observe_next`, where a game has it): it must be exactly `observe` of the new state, for
every profile, every kind of step and chains of steps, and must leave the JSON it builds on
unchanged. The lockstep uses it only on a true (state, JSON) pair."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from gamecert.fuzz.engines.engine import InProcessEngine
from gamecert.fuzz.step.lockstep import Coverage, Lockstep
from gamecert.reference_engine import reference_game, reference_session
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue

GAMES = [g for g in ("carcassonne", "kingdomino", "flit", "botwars")
         if hasattr(reference_game(g), "observe_next")]
CASES = [(g, p) for g in GAMES for p in load_catalogue(g).profiles]


def _next(game: Any, s: Any, rng: random.Random) -> Any:
    if game.current(s) == CHANCE:
        return game.random_chance(s, rng)
    return game.random_action(s, rng)


def test_the_games_that_need_it_have_it() -> None:
    assert {"carcassonne", "kingdomino"} <= set(GAMES)


@pytest.mark.parametrize(("game_name", "profile_id"), CASES)
def test_observe_next_is_observe(game_name: str, profile_id: str) -> None:
    game = reference_game(game_name)
    profile = load_catalogue(game_name).profile(profile_id)
    rng = random.Random(7)
    steps = shared = 0
    for _ in range(3):
        s = game.initial(profile)
        seen = game.observe(s)
        history = [(s, seen)]
        while game.current(s) != TERMINAL:
            nxt, _ = game.apply(s, _next(game, s, rng))
            kept = copy.deepcopy(seen)
            built = game.observe_next(s, seen, nxt)
            assert built == game.observe(nxt), f"step {steps} of {profile_id}"
            assert seen == kept, "observe_next changed the JSON it built on"
            # from a state a few steps back (follow mode: an action and its draws at once)
            back, back_json = history[max(0, len(history) - 3)]
            assert game.observe_next(back, back_json, nxt) == built
            shared += sum(built[k] is seen[k] for k in built
                          if isinstance(built[k], list | dict))
            s, seen = nxt, built
            history.append((s, seen))
            steps += 1
    assert steps > 0 and shared > steps  # parts are shared, not rebuilt


@pytest.mark.parametrize("game_name", GAMES)
def test_the_lockstep_keeps_the_reference_json_true(game_name: str) -> None:
    """After every step the lockstep's JSON is `observe` of its reference state, also when
    something outside it replaced the state (no pair: observed in full)."""
    game = reference_game(game_name)
    profile = load_catalogue(game_name).profile(None)
    ls = Lockstep(game, InProcessEngine(reference_session(game_name)), profile, [],
                  coverage=Coverage())
    ls.start({"kind": "new_game", "seed": 3})
    rng = random.Random(3)
    for i in range(60):
        if not ls.live:
            break
        if i == 20:  # a state set from outside, as a test's shim does
            ls.ref = game.load(profile, copy.deepcopy(ls.ref_json))
            assert ls.json_of is not ls.ref
        ls.step(game.action_to_json(ls.ref, _next(game, ls.ref, rng)))
        assert ls.ref_json == game.observe(ls.ref)
        assert ls.json_of is ls.ref
