"""The state of a Flit game: the colours and phases, the internal actions the referee
returns, a profile's configuration (`FlitConfig`, resolved once), the immutable state record
and the torus neighbour table.

The bottom layer of the engine: `moves.py` (legal moves, chance), `steps.py` (a step played)
and `engine.py` (the contract, canonical JSON, the referee) build on it. It must not import
any of them, and holds no rule decision (those are the engine's hooks).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, TypeVar

from gamecert.spec import Profile

EMPTY, NEUTRAL = 0, 5
BOTS = (1, 2, 3, 4)
SETUP, MOVE, NEUTRAL_STEP, OVER = "setup", "move", "neutral", "over"

Action = tuple[Any, ...]
PASS: Action = ("pass",)
TIMEOUT: Action = ("timeout",)
INVALID: Action = ("invalid",)


@cache
def neighbour_table(width: int, height: int) -> tuple[tuple[int, int, int, int], ...]:
    """The four torus neighbours (N, E, S, W) of every square."""
    table = []
    for y in range(height):
        for x in range(width):
            table.append((((y - 1) % height) * width + x, y * width + (x + 1) % width,
                          ((y + 1) % height) * width + x, y * width + (x - 1) % width))
    return tuple(table)


@dataclass(frozen=True)
class FlitConfig:
    """A profile's parameters and chosen variants, resolved once."""

    profile: Profile
    width: int
    height: int
    hit_denominator: int
    list_denominator: int
    list_neutrals: bool  # FLIT-NEUTRAL-ADD = list-1-in-6
    invalid_disqualifies: bool  # FLIT-MOVE-INVALID = disqualify
    frozen_turn_skipped: bool  # FLIT-FREEZE = skipped
    freeze_after: int
    allpass_any: bool  # FLIT-END-ALLPASS = any-no-move
    max_turns: int
    cap_literal: bool  # FLIT-END-TURNCAP = literal-exceeds
    end_after_move: bool  # FLIT-END-TIMING = after-move
    p_offset: int
    pieces_per_bot: int

    @staticmethod
    def of(profile: Profile) -> FlitConfig:
        return _config(profile)


@cache
def _config(profile: Profile) -> FlitConfig:
    p, v = profile.param, profile.variant
    return FlitConfig(
        profile, p("FLIT-BOARD-SIZE", "width"), p("FLIT-BOARD-SIZE", "height"),
        p("FLIT-NEUTRAL-ADD", "hit_denominator"), p("FLIT-NEUTRAL-ADD", "list_denominator"),
        v("FLIT-NEUTRAL-ADD") == "list-1-in-6", v("FLIT-MOVE-INVALID") == "disqualify",
        v("FLIT-FREEZE") == "skipped", p("FLIT-FREEZE", "consecutive_timeouts"),
        v("FLIT-END-ALLPASS") == "any-no-move", p("FLIT-END-TURNCAP", "max_turns"),
        v("FLIT-END-TURNCAP") == "literal-exceeds", v("FLIT-END-TIMING") == "after-move",
        p("FLIT-END-CATCHUP", "p_offset"), p("FLIT-SETUP-ORDER", "pieces_per_bot"))


class FlitState(NamedTuple):
    cfg: FlitConfig
    board: bytes
    phase: str
    to_move: int  # the bot whose turn it is (or whose setup piece is next); 0 when over
    turn: int  # turns whose move (or no move) has been made
    passes: int  # the current run of turns without a real move
    timeouts: tuple[int, int, int, int]
    frozen: tuple[bool, bool, bool, bool]
    result: dict[str, Any] | None = None

    @property
    def profile(self) -> Profile:
        return self.cfg.profile

    @property
    def width(self) -> int:
        return self.cfg.width

    @property
    def height(self) -> int:
        return self.cfg.height


T = TypeVar("T")


def _set(values: tuple[T, T, T, T], bot: int, value: T) -> tuple[T, T, T, T]:
    """The per-bot tuple with bot's entry replaced."""
    out = list(values)
    out[bot - 1] = value
    return out[0], out[1], out[2], out[3]
