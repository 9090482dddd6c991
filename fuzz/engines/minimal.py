"""The minimum-capability wrapper: any of our games (the reference or a mutant) as an engine
that declares nothing beyond `hello`, `new_game`, `apply` and `observe`.

It is how the harness's own tests exercise what a real engine offers: no `load_state`, no
`legal`, no `bot_output`, no `chance`. It draws every chance outcome itself, with its own
`random.Random(seed)` and the weights of the wrapped game's `chance()` (so a mutant that
biases its weights draws biased), and reports each draw as a `{"chance": ...}` event, as
the follow-mode contract says (docs/capabilities.md). On the command line:
`--engine minimal:<spec>`, where `<spec>` is any in-process engine spec.

This module must not import the lockstep or reports.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from gamecert.reference_engine.contract import CHANCE, IllegalAction, Session
from gamecert.spec import Profile

JSON = Any
S = TypeVar("S")
A = TypeVar("A")

PREFIX = "minimal:"
# The minimum and no events of its own either, as real engines are (`no_events`): only its
# draws are reported. `--engine bare:<spec>`.
BARE = "bare:"


class MinimalSession(Session[S, A]):
    """A `Session` that declares only the minimum and draws for itself; with `bare`, it
    sends no events but its draw reports and declares `no_events`."""

    def __init__(self, game: Any, name: str = "reference", bare: bool = False) -> None:
        super().__init__(game, name=f"{BARE if bare else PREFIX}{name}")
        self.rng = random.Random(0)
        self.start_events: list[JSON] = []
        self.bare = bare

    def hello(self) -> JSON:
        reply = dict(super().hello())
        # the minimum: hello, new_game, apply, observe (and, bare, no events of its own)
        reply["capabilities"] = ["no_events"] if self.bare else []
        return reply

    def new_game(self, profile: str | Profile | None = None, seed: int | None = None) -> JSON:
        super().new_game(profile, seed)
        self.rng = random.Random(seed)
        self.start_events = self._draw()
        return self.observe()

    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]:
        state = self._state()
        if self.game.current(state) == CHANCE:  # cannot happen: every draw is made at once
            raise IllegalAction("this engine draws for itself")
        _, events = super().apply(action)
        drawn = self._draw()  # before observing: the state after the draws is the reply
        return self.observe(), ([] if self.bare else list(events)) + drawn

    def _draw(self) -> list[JSON]:
        """Every draw due now, each with the wrapped game's weights, reported in order."""
        out: list[JSON] = []
        game = self.game
        while self.state is not None and game.current(self.state) == CHANCE:
            listing = game.chance(self.state)
            weights = floats([o.probability for o in listing])
            r = self.rng.random() * sum(weights)
            pick = listing[-1].action
            for o, w in zip(listing, weights, strict=True):
                r -= w
                if r < 0:
                    pick = o.action
                    break
            drawn = game.action_to_json(self.state, pick)
            self.state, events = game.apply(self.state, pick)
            out += [{"chance": drawn}, *([] if self.bare else events)]
        return out


def minimal_session(session: Session[Any, Any], bare: bool = False
                    ) -> MinimalSession[Any, Any]:
    """The same game as `session`, behind the minimum capabilities (`bare`: and no events)."""
    return MinimalSession(session.game, name=session.name, bare=bare)


def floats(probabilities: list[Any]) -> list[float]:
    """Exact probabilities as floats; a listing repeats a few Fraction objects many times
    (Flit's 2,048 neutral outcomes have three), and converting each once saves the most."""
    seen: dict[int, float] = {}
    out = []
    for p in probabilities:
        f = seen.get(id(p))
        if f is None:
            f = seen[id(p)] = float(p)
        out.append(f)
    return out
