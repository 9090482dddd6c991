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
                 limit: int | None = None, shared: bool = False) -> list[Transition]:
    """Every step of `games` random games (chance outcomes drawn too), at most `limit`.
    Each state is observed afresh; with `shared`, the JSON is built as the lockstep builds
    its reference's (`observe_next`: each `after` from the `before`, the parts a step left
    alone shared, and each step's `after` the next step's `before`)."""
    game = reference_game(game_name)
    profile = load_catalogue(game_name).profile(profile_id)
    rng = random.Random(seed)
    out: list[Transition] = []
    for _ in range(games):
        s = game.initial(profile)
        seen = game.observe(s)
        while (who := game.current(s)) != TERMINAL and (limit is None or len(out) < limit):
            a = (game.random_chance(s, rng) if who == CHANCE  # type: ignore[attr-defined]
                 else game.random_action(s, rng))  # type: ignore[attr-defined]
            before, action = seen if shared else game.observe(s), game.action_to_json(s, a)
            nxt, events = game.apply(s, a)
            seen = (game.observe_next(s, before, nxt)  # type: ignore[attr-defined]
                    if shared else game.observe(nxt))
            out.append(Transition(before, action, seen, list(events)))
            s = nxt
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
