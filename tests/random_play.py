"""Random games of the reference, as canonical JSON: the states and steps that tests of the
oracles' shortcuts compare against the plain computations. Test helpers only."""

from __future__ import annotations

import random
from typing import Any

from gamecert.oracles.base import Transition
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import load_catalogue


def random_steps(game_name: str, profile_id: str | None, seed: int, games: int = 1,
                 limit: int | None = None) -> list[Transition]:
    """Every step of `games` random games (chance outcomes drawn too), at most `limit`."""
    game = reference_game(game_name)
    profile = load_catalogue(game_name).profile(profile_id)
    rng = random.Random(seed)
    out: list[Transition] = []
    for _ in range(games):
        s = game.initial(profile)
        while (who := game.current(s)) != TERMINAL and (limit is None or len(out) < limit):
            a = (game.random_chance(s, rng) if who == CHANCE  # type: ignore[attr-defined]
                 else game.random_action(s, rng))  # type: ignore[attr-defined]
            before, action = game.observe(s), game.action_to_json(s, a)
            s, events = game.apply(s, a)
            out.append(Transition(before, action, game.observe(s), list(events)))
    return out


def random_states(game_name: str, profile_id: str | None, seed: int,
                  games: int = 1) -> list[Any]:
    """Every state of `games` random games, the first included."""
    out: list[Any] = []
    for t in random_steps(game_name, profile_id, seed, games):
        if not out or t.before is not out[-1]:
            out.append(t.before)
        out.append(t.after)
    return out
