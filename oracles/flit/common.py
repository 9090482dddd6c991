"""What every Flit check reads: the kind of a step (`action_kind`, and the `on` sets the
checks name), the bot to move, the board's size under a profile, and squares named for a
message.

On canonical JSON only, never the reference engine. Judges nothing and names no rule: the
checks (`setup`, `moves`, `ending`, `protocol`) do.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gamecert.oracles.base import Transition
from gamecert.spec import Profile

JSON = Any
PLAYER_ACTIONS = ("move", "pass", "timeout", "invalid")
PHASE_OF = {"move": "move", "pass": "move", "timeout": "move", "invalid": "move",
            "setup": "setup", "neutral": "neutral", "neutral-list": "neutral"}


def action_kind(action: JSON) -> str:
    """The kind of a step, from its action alone (the oracles' `on` sets name these)."""
    kind = action.get("type", "")
    return kind if type(kind) is str else str(kind)  # asked at every step: str() if need be


def _kind(t: Transition) -> str:
    return action_kind(t.action)


# The kinds of step each phase takes: the reference accepted the action in `before`.
MOVE, SETUP, NEUTRAL = (frozenset(PLAYER_ACTIONS), frozenset({"setup"}),
                        frozenset({"neutral", "neutral-list"}))


def _bot(t: Transition) -> int:
    return int(t.before["to_move"])


@cache
def _size(profile: Profile) -> tuple[int, int]:
    return profile.param("FLIT-BOARD-SIZE", "width"), profile.param("FLIT-BOARD-SIZE", "height")


def _squares(state: JSON, changes: dict[int, str]) -> dict[str, str]:
    """Changed squares as "(x, y)": colour, for a message."""
    w = state["width"]
    return {f"({i % w}, {i // w})": c for i, c in sorted(changes.items())[:8]}


def _places(state: JSON, squares: list[int]) -> list[tuple[int, int]]:
    """Squares as (x, y), for a message."""
    w = state["width"]
    return [(i % w, i // w) for i in squares[:8]]
