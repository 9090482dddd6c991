"""Play on from where a lockstep stands: each next action a chooser's, or else the
reference's seeded random choice (a draw's outcome at a draw), up to a length or the game's
end, each step judged and recorded as any other.

Shared by the machine's `stretch` rule (fuzz.search.machine) and the triage's `play_on`
operation (fuzz.findings.trace). This module chooses and plays; it must not judge.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gamecert.fuzz.step.lockstep import InvalidInput, Lockstep
from gamecert.reference_engine.contract import CHANCE

JSON = Any


def play_seeded(ls: Lockstep, rng: random.Random, length: int,
                choose: Callable[[], JSON | None] | None = None,
                no_referee: tuple[str, ...] = ()) -> int:
    """Up to `length` steps from where `ls` stands, to the game's end at most; the number
    played. Each action is `choose()`'s (None: stop here), else the reference's random
    choice drawn with `rng`. It stops before a referee action the engine is never sent
    (`no_referee`), at an action the reference takes for bad input, and after a step the
    reference refused (it stands where it stood, and the same choices would be refused
    again and again). The same `rng` state from the same position plays the same steps."""
    game: Any = ls.game
    played = 0
    for _ in range(length):
        if not ls.live:
            break
        state, seen = ls.ref, ls.ref_json
        if choose is not None:
            action = choose()
            if action is None:
                break
        else:
            act = (game.random_chance(state, rng) if game.current(state) == CHANCE
                   else game.random_action(state, rng))
            action = game.action_to_json(state, act)
        if isinstance(action, dict) and action.get("type") in no_referee:
            break
        try:
            ls.step(action)
        except InvalidInput:
            break
        played += 1
        if ls.ref_json is seen:
            break
    return played
