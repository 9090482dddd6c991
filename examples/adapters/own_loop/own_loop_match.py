"""A small Kingdomino match engine shaped like a competition's: it owns its game loop.

`Match(profile, seed).run(bots)` deals with its own seeded RNG, then asks each king's bot
for a move (`bot.play(view, error=None)`, returning a `Move`) until the game is over, and
returns the final scores. A move it refuses is asked for again, with the reason in `error`
(a console game's way); after `patience` refusals in a row it gives the bot up and plays
the first move it finds for it. Its rules are our reference engine's (this file only stands
in for someone else's engine, for examples/adapters/own_loop/adapter.py and the kit's
tests), driven the way a real engine drives itself.

It is an example engine: it must not import gamecert's harness, only the reference rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction
from gamecert.spec import Profile

JSON = Any


@dataclass(frozen=True)
class Move:
    """The engine's own move: where to put last turn's tile (x, y, rotation) and which tile
    of the line to pick; None where the turn has no such part."""

    put: tuple[int, int, int] | None
    pick: int | None


class Bot(Protocol):
    def play(self, view: JSON, error: str | None = None) -> Move: ...


class Match:
    """One match: its state, its RNG, and the draws it made since `drawn` was emptied."""

    patience = 100  # refusals in a row before the engine plays for the bot

    def __init__(self, profile: Profile, seed: int) -> None:
        self.rules = reference_game("kingdomino")
        self.rng = random.Random(seed)
        self.state = self.rules.initial(profile, None)
        self.drawn: list[JSON] = []  # canonical chance actions, for whoever watches
        self.given_up: list[int] = []  # players the engine played for

    def view(self) -> JSON:
        """What a bot is shown (and what an observer reads): the whole table."""
        return self.rules.observe(self.state)

    def run(self, bots: list[Bot]) -> list[int]:
        """The game loop: deal, ask the king to move, play it, until the game is over."""
        self._deal()
        while (who := self.rules.current(self.state)) != TERMINAL:
            error: str | None = None
            for _ in range(self.patience):
                move = bots[who - 1].play(self.view(), error=error)
                error = self._play(move)
                if error is None:
                    break
            else:
                self.given_up.append(who)
                self._play_for(who)
            self._deal()
        return self.rules.scores(self.state)

    def _play(self, move: Move) -> str | None:
        """Play `move` for the king to act; the reason it is refused, or None."""
        if not isinstance(move, Move):
            return f"not a move: {move!r:.60}"
        data = {"type": "play", "put": list(move.put) if move.put else None, "pick": move.pick}
        try:
            action = self.rules.action_from_json(self.state, data)
            if action not in self.rules.legal(self.state):
                return f"{data} is not allowed now"
        except (IllegalAction, TypeError, ValueError) as exc:
            return str(exc)
        self.state, _ = self.rules.apply(self.state, action)
        return None

    def _play_for(self, who: int) -> None:
        self.state, _ = self.rules.apply(self.state, self.rules.legal(self.state)[0])

    def _deal(self) -> None:
        """Every draw due now, made with the match's own RNG and noted in `drawn`."""
        while self.rules.current(self.state) == CHANCE:
            outcomes = list(self.rules.chance(self.state))
            pick = self.rng.choices(outcomes, [float(o.probability) for o in outcomes])[0]
            self.drawn.append(self.rules.action_to_json(self.state, pick.action))
            self.state, _ = self.rules.apply(self.state, pick.action)
