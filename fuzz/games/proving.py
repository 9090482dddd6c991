"""What the games' proofs share (`gamecert prove GAME`, each game's `proofs.py`): the engine's
own code when it runs in this process, and z3's positions played on the engine beside the
reference. Plays positions; proves nothing itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from gamecert.fuzz.engines.engine import Engine, InProcessEngine
from gamecert.fuzz.step.lockstep import Coverage, Finding, Lockstep
from gamecert.oracles import oracles_for
from gamecert.reference_engine import reference_game
from gamecert.spec import Profile


def engine_code(engine: Engine) -> Any | None:
    """The engine's Game object when it runs in this process."""
    return engine.session.game if isinstance(engine, InProcessEngine) else None


def disagreements(game: str, engine: Engine, profile: Profile,
                  positions: Iterable[tuple[str, Any]],
                  actions: Callable[[Any], list[Any]]) -> list[str]:
    """Play `actions(state)` from each (label, state) on the engine beside the reference;
    one line for each position where the engine breaks a rule or leaves the reference."""
    ref, oracles = reference_game(game), oracles_for(game)
    bad = []
    for label, state in positions:
        ls = Lockstep(ref, engine, profile, oracles, coverage=Coverage())
        try:
            ls.start({"kind": "state", "state": state})
            for action in actions(state):
                ls.step(action)
        except Finding as f:
            bad.append(f"  {label}: [{', '.join(f.rules)}] {f.message}")
    return bad
