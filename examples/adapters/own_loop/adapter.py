"""An adapter, written with the kit's loop bridge, for an engine that owns its game loop
(examples/adapters/own_loop/own_loop_match.py: `Match(profile, seed).run(bots)` asks each bot for a
move with `bot.play(view, error=None)`).

The adapter writes no plumbing: `start` makes the match, `run` starts its loop with the
seats the kit hands it, `move` turns a canonical action into the engine's `Move`, `drawn`
passes on the draws the match made with its own RNG (follow mode), and `refused` reads the
engine's way of refusing a move: it asks the same bot again with the reason in `error`.

    gamecert certify kingdomino --engine examples/adapters/own_loop/adapter.py:OwnLoop
    gamecert certify kingdomino --engine-cmd \\
        "python -m gamecert.adapters.serve examples/adapters/own_loop/adapter.py:OwnLoop"
"""

from __future__ import annotations

import os
import sys
from typing import Any, ClassVar

from gamecert.adapters import NativeRefusal
from gamecert.adapters.loop import Ask, LoopAdapter, Seat
from gamecert.spec import Profile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from own_loop_match import Match, Move  # the engine: a neighbour file

JSON = Any


class OwnLoop(LoopAdapter):
    game_name: ClassVar[str] = "kingdomino"
    engine: ClassVar[str] = "own-loop kingdomino (example)"
    seat_method: ClassVar[str | None] = "play"  # the engine calls bot.play(view, error=...)
    no_referee: ClassVar[bool] = True  # it asks again after a bad move: no stop, no invalid-put

    def start(self, profile: Profile, seed: int) -> Any:
        return Match(profile, seed)

    def run(self, native: Any, seats: list[Seat]) -> Any:
        return native.run(seats)

    def move(self, ask: Ask, action: JSON) -> Any:
        if action.get("type") != "play" or set(action) != {"type", "put", "pick"}:
            raise NativeRefusal(f"the engine has no such move: {action}")
        put = action["put"]
        if put is not None and not (isinstance(put, list) and len(put) == 3):
            raise NativeRefusal(f"a put is [x, y, rotation], not {put!r}")
        return Move(tuple(put) if put is not None else None, action["pick"])

    def canonical(self, native: Any) -> JSON:
        return native.view()

    def drawn(self, native: Any) -> list[JSON]:
        out, native.drawn = native.drawn, []
        return out

    def refused(self, before: Ask, after: Ask) -> str | None:
        return after.kwargs.get("error")  # the engine tells the bot why it asks again
