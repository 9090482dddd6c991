"""Follow-mode draws gathered fast: whole games of random legal play, no Hypothesis.

The statistical chance checks (fuzz.findings.chance_stats) are measured with it: how often they
raise a false alarm on the reference behind the minimum-capability wrapper, and how surely
they catch a biased mutant. The same lockstep as a campaign follows the engine's draws, so
the samples are those a campaign would collect; only the choice of moves differs (uniform
random here, Hypothesis there). Used by tests and benchmarks/reach/chance_false_alarms.py; it
must not write files.
"""

from __future__ import annotations

import random
from typing import Any

from gamecert.fuzz.engines.capabilities import MINIMUM
from gamecert.fuzz.engines.engine import Engine
from gamecert.fuzz.findings.chance_stats import ChanceStats
from gamecert.fuzz.step.lockstep import Coverage, Lockstep
from gamecert.reference_engine import reference_game
from gamecert.spec import load_catalogue


def gather(game: str, engine: Engine, games: int, seed: int = 0, max_steps: int = 400,
           profile_id: str | None = None) -> ChanceStats:
    """The draws of `games` random games (seeds seed, seed + 1, ...) of `engine`, an engine
    that draws for itself, followed by the reference. No oracle runs: only the draws are
    wanted (each is still checked to be one the reference lists)."""
    ref = reference_game(game)
    profile = load_catalogue(game).profile(profile_id)
    stats = ChanceStats()
    rng = random.Random(seed)
    ls = Lockstep(ref, engine, profile, [], coverage=Coverage(), caps=MINIMUM,
                  chance_stats=stats)
    for g in range(games):
        ls.dead = False
        ls.start({"kind": "new_game", "seed": seed * 1_000_003 + g})
        steps = 0
        while ls.live and steps < max_steps:
            ls.step(_random_action(ref, ls.ref, rng))
            steps += 1
    return stats


def _random_action(game: Any, state: Any, rng: random.Random) -> Any:
    pick = getattr(game, "random_action", None)
    action = pick(state, rng) if pick is not None else rng.choice(game.legal(state))
    return game.action_to_json(state, action)
