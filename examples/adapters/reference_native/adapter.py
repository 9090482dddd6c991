"""Our own reference engines adapted as if they were third-party engines, for the kit's tests.

Each class treats a reference `Game` as a native engine: its states are "native objects", it
draws its own chance outcomes with its own seeded RNG (follow mode: no `chance` capability)
and reports them, and it refuses a move with the reference's own exception. Nothing here may
borrow the harness: it exercises `gamecert.adapters` exactly as a maintainer would.

    gamecert certify flit --engine examples/adapters/reference_native/adapter.py:Flit
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from gamecert.adapters import NativeAdapter, NativeRefusal
from gamecert.reference_engine import reference_game
from gamecert.reference_engine.contract import CHANCE, IllegalAction
from gamecert.spec import Profile

JSON = Any


class ReferenceAsNative(NativeAdapter):
    """A reference Game driven like a native engine that draws for itself."""

    engine: ClassVar[str] = "reference-as-native"

    def start(self, profile: Profile, seed: int) -> Any:
        self.ref = reference_game(self.game_name)
        self.rng = random.Random(seed)
        self.log: list[JSON] = []  # draws, each followed by the events it caused
        self.own: list[JSON] = []
        return self._draw(self.ref.initial(profile, None))

    def play(self, native: Any, action: JSON) -> Any:
        if self.ref.current(native) == CHANCE:
            raise NativeRefusal("this engine draws for itself")
        try:
            move = self.ref.action_from_json(native, action)
            after, self.own = self.ref.apply(native, move)
        except IllegalAction as exc:  # the native refusal
            raise NativeRefusal(str(exc)) from None
        return self._draw(after)

    def canonical(self, native: Any) -> JSON:
        return self.ref.observe(native)

    def events(self, before: Any, action: JSON, after: Any) -> list[JSON]:
        return list(self.own)

    def report(self, native: Any) -> list[JSON]:
        out, self.log = self.log, []
        return out

    def _draw(self, state: Any) -> Any:
        """Play chance steps with our own RNG until a player is to move, noting each draw."""
        while self.ref.current(state) == CHANCE:
            outcomes = list(self.ref.chance(state))
            pick = self.rng.choices(outcomes, weights=[float(o.probability) for o in outcomes])
            action = pick[0].action
            self.log.append({"chance": self.ref.action_to_json(state, action)})
            state, caused = self.ref.apply(state, action)
            self.log.extend(caused)
        return state


class Flit(ReferenceAsNative):
    game_name = "flit"


class Kingdomino(ReferenceAsNative):
    game_name = "kingdomino"


class Carcassonne(ReferenceAsNative):
    game_name = "carcassonne"


class Botwars(ReferenceAsNative):
    game_name = "botwars"


class Chatty(Kingdomino):
    """Prints while it plays, as many native engines do: the wire must stay clean."""

    def play(self, native: Any, action: JSON) -> Any:
        print("native engine: playing", action)
        return super().play(native, action)


class QuietKingdomino(Kingdomino):
    """Like most real engines: reports its draws but has none of our events (no_events)."""

    events = NativeAdapter.events

    def report(self, native: Any) -> list[JSON]:
        return [e for e in super().report(native) if "chance" in e]


class QuietWrongScore(QuietKingdomino):
    """No events, and a state that goes wrong: the harness must still see the state."""

    def canonical(self, native: Any) -> JSON:
        state = super().canonical(native)
        return {**state, "turn": state["turn"] + 1} if state["turn"] >= 3 else state


class ConsoleKingdomino(QuietKingdomino):
    """Like a board game at a console: a bad command is asked again, so it has none of the
    referee's actions (a stop, an invalid PUT) and refuses them."""

    def play(self, native: Any, action: JSON) -> Any:
        if action.get("type") in ("stop", "invalid-put"):
            raise NativeRefusal("a console asks again: no player's game ever stops")
        return super().play(native, action)


class NoRefereeKingdomino(ConsoleKingdomino):
    """The same, declaring it (`no_referee`): the harness then sends it no referee's action."""

    no_referee = True
