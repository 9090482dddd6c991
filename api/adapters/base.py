"""The base class for adapting an in-process Python engine that gamecert did not write.

A maintainer subclasses `NativeAdapter` and writes only what gamecert cannot know:

* `start(profile, seed)`: start a native game from a seed (and a rule profile);
* `play(native, action)`: turn one canonical action into the native move and play it,
  raising `NativeRefusal` (or one of the classes in `refusals`) when the engine refuses it;
* `canonical(native)`: the native state as the game's canonical state JSON;
* optionally `drawn(native)`: the chance outcomes the native engine drew since the last call,
  as canonical chance actions, when the engine draws for itself (follow mode).

The class then speaks the minimum-capability contract (briefs: `hello`, `new_game`, `apply`,
`observe`; no `load_state`, `legal`, `bot_output` or `chance`) as a `Session`, so
`gamecert certify GAME --engine path/adapter.py:Name` runs it in-process and
`python -m gamecert.adapters.serve path/adapter.py:Name` runs it as a wire-protocol process.

Exceptions are mapped here once: a native refusal becomes the wire's 'illegal' (the state
stays as it was), anything else the native code raises is left to propagate, which the
harness reports as an engine crash. This module must not import the harness or the oracles.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from gamecert.reference_engine.contract import BadState, IllegalAction, Session
from gamecert.spec import Profile, load_catalogue

JSON = Any


class NativeRefusal(Exception):
    """Raised by `play` when the native engine refuses the move (or has no such move)."""


class NotOffered(IllegalAction):
    """An operation the adapter does not declare among its capabilities was asked for."""


class NativeAdapter(Session[Any, Any]):
    """A third-party engine behind the minimum-capability contract.

    Class attributes to set: `game` (our game name, e.g. "carcassonne"), `engine` (a name for
    reports), optionally `refusals` (native exception classes that mean "move refused") and
    `copy_before_play` (True when `play` changes the native object in place: the base class
    then plays on a deep copy, so a refused move leaves the game untouched).
    """

    game_name: ClassVar[str] = ""
    engine: ClassVar[str] = "native engine"
    refusals: ClassVar[tuple[type[BaseException], ...]] = ()
    copy_before_play: ClassVar[bool] = False
    default_seed: ClassVar[int] = 0
    """The seed used when new_game is sent without one (the harness's handshake does)."""

    def __init__(self) -> None:
        # deliberately not Session.__init__: there is no reference `Game` behind an adapter
        if not self.game_name:
            raise TypeError(f"{type(self).__name__} must set the class attribute game_name")
        self.name = self.engine
        self.catalogue = load_catalogue(self.game_name)
        self.profile = self.catalogue.profile()
        self.state = None
        self.native: Any = None
        self.start_events: list[JSON] = []

    # --- what the maintainer writes ------------------------------------------------------
    def start(self, profile: Profile, seed: int) -> Any:
        """A new native game for `profile`, its randomness seeded by `seed`."""
        raise NotImplementedError

    def play(self, native: Any, action: JSON) -> Any:
        """Play canonical `action` on `native`; return the native game after it (the same
        object when played in place). Raise `NativeRefusal` when the engine refuses it."""
        raise NotImplementedError

    def canonical(self, native: Any) -> JSON:
        """The native game as canonical state JSON (schemas/<game>-state.schema.json)."""
        raise NotImplementedError

    def drawn(self, native: Any) -> list[JSON]:
        """Chance outcomes the native engine drew since the last call, in order, as canonical
        chance actions (what the reference's `legal` lists as `outcomes[].action`)."""
        return []

    def events(self, before: Any, action: JSON, after: Any) -> list[JSON]:
        """The canonical events of one player action (schemas/<game>-event); none by
        default."""
        return []

    def report(self, native: Any) -> list[JSON]:
        """What follows an action's own events (and makes up new_game's events): each draw
        as `{"chance": outcome}`. An adapter whose engine also reports what each draw caused
        overrides this to put those events right after their draw."""
        return [{"chance": d} for d in self.drawn(native)]

    # --- the wire operations -------------------------------------------------------------
    def hello(self) -> JSON:
        # an adapter that writes no events of its own declares so (`no_events`): the harness
        # then compares its states and draw reports, not events it cannot have
        own = type(self).events is not NativeAdapter.events
        return {"game": self.game_name, "engine": self.engine,
                "profiles": sorted(self.catalogue.profiles),
                "capabilities": [] if own else ["no_events"]}

    def new_game(self, profile: str | None = None, seed: int | None = None) -> JSON:
        if profile is not None and not isinstance(profile, str):
            raise BadState(f"profile must be a profile name, not {profile!r:.60}")
        if seed is not None and type(seed) is not int:
            raise BadState(f"seed must be a whole number, not {seed!r:.60}")
        prof = self.catalogue.profile(profile)
        native = self.start(prof, self.default_seed if seed is None else seed)
        self.profile, self.native, self.state = prof, native, native
        self.start_events = self.report(native)
        return self.canonical(native)

    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]:
        before = self._native()
        if not isinstance(action, dict):
            raise IllegalAction(f"an action is a JSON object, not {action!r:.60}")
        target = copy.deepcopy(before) if self.copy_before_play else before
        try:
            after = self.play(target, action)
        except NativeRefusal as exc:
            raise IllegalAction(str(exc) or "the engine refused the move") from None
        except self.refusals as exc:
            raise IllegalAction(f"{type(exc).__name__}: {exc}") from None
        after = target if after is None else after
        events = [*self.events(before, action, after), *self.report(after)]
        self.native = self.state = after
        return self.canonical(after), events

    def observe(self) -> JSON:
        return self.canonical(self._native())

    def legal(self) -> JSON:
        raise NotOffered(f"{self.engine} does not offer 'legal' (not in its capabilities)")

    def load_state(self, state: JSON, profile: str | None = None) -> JSON:
        raise NotOffered(f"{self.engine} does not offer 'load_state' (not in its capabilities)")

    def bot_output(self, text: str) -> JSON:
        raise NotOffered(f"{self.engine} does not offer 'bot_output' (not in its capabilities)")

    def close(self) -> None:
        self.native = self.state = None

    def _native(self) -> Any:
        if self.native is None:
            raise IllegalAction("no game in progress: send new_game first")
        return self.native
