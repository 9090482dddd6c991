"""The base class for adapting an in-process Python engine that gamecert did not write.

A maintainer subclasses `NativeAdapter` and writes only what gamecert cannot know:

* `start(profile, seed)`: start a native game from a seed (and a rule profile);
* `play(native, action)`: turn one canonical action into the native move and play it,
  raising `NativeRefusal` (or one of the classes in `refusals`) when the engine refuses it;
* `canonical(native)`: the native state as the game's canonical state JSON;
* optionally `drawn(native)`: the chance outcomes the native engine drew since the last call,
  as canonical chance actions, when the engine draws for itself (follow mode);
* optionally `load(profile, state)` (a native game from a canonical state: declares
  `load_state`) and `referee(native, text)` (what the engine's referee makes of a bot's raw
  text: declares `bot_output`).

The class then speaks the minimum-capability contract (`hello`, `new_game`, `apply`,
`observe`; no `legal` or `chance`) as a `Session`, plus what it declares: `load_state` and
`bot_output` when it writes their hooks, `undo` when it plays on a copy
(`copy_before_play`), and the limits and promises set as class attributes (`no_referee`,
`stateless`; `no_events` unless it writes `events`). `gamecert certify GAME --engine
path/adapter.py:Name` runs it in-process and `python -m gamecert.adapters.serve
path/adapter.py:Name` runs it as a wire-protocol process.

Exceptions are mapped here once: a native refusal becomes the wire's 'illegal' (the state
stays as it was), anything else the native code raises is left to propagate, which the
harness reports as an engine crash. This module must not import the harness or the oracles.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from gamecert.reference_engine.contract import BadState, IllegalAction, Session, resolve_profile
from gamecert.reference_engine.wire_rules import players_of
from gamecert.spec import Profile, load_catalogue

JSON = Any


class NativeRefusal(Exception):
    """Raised by `play` when the native engine refuses the move (or has no such move)."""


class NotOffered(IllegalAction):
    """An operation the adapter does not declare among its capabilities was asked for."""


class NativeAdapter(Session[Any, Any]):
    """A third-party engine behind the minimum-capability contract.

    Class attributes to set: `game_name` (our game name, e.g. "carcassonne"), `engine` (a
    name for reports), optionally `refusals` (native exception classes that mean "move
    refused"), `copy_before_play` (True when `play` changes the native object in place: the
    base class then plays on a deep copy, so a refused move leaves the game untouched, and
    keeps the game from before the last move, which it offers as `undo`), `no_referee` (the
    engine has no referee: it is sent none of the referee's actions) and `stateless` (a new
    game, or a loaded state, forgets everything before it: the harness may reuse one process).

    In `start` and the other hooks, `self.profile` is the rule profile of the game in
    progress (`profile.param(rule, name)`, `profile.parameters`, `profile.variants`,
    `profile.off`) and `self.players` the number of players it seats.
    """

    game_name: ClassVar[str] = ""
    engine: ClassVar[str] = "native engine"
    refusals: ClassVar[tuple[type[BaseException], ...]] = ()
    copy_before_play: ClassVar[bool] = False
    no_referee: ClassVar[bool] = False
    stateless: ClassVar[bool] = False
    default_seed: ClassVar[int] = 0
    """The seed used when new_game is sent without one (the harness's handshake does)."""

    def __init__(self) -> None:
        # deliberately not Session.__init__: there is no reference `Game` behind an adapter
        if not self.game_name:
            raise TypeError(f"{type(self).__name__} must set the class attribute game_name")
        self.name = self.engine
        self.catalogue = load_catalogue(self.game_name)
        self.profile = self.catalogue.profile()
        self.players = 0
        self.state = None
        self.previous = None
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

    def load(self, profile: Profile, state: JSON) -> Any:
        """Optional: a native game in the canonical `state` (under `profile`). Writing it
        declares `load_state`; raise `NativeRefusal` for a state the engine cannot take."""
        raise NotImplementedError

    def referee(self, native: Any, text: str) -> JSON:
        """Optional: the canonical action the engine's referee makes of `text`, a bot's raw
        reply in `native` (a referee action when it is not a valid move). Writing it declares
        `bot_output`; the game must not change."""
        raise NotImplementedError

    # --- what it declares ----------------------------------------------------------------
    def capabilities(self) -> list[str]:
        """`hello`'s capabilities, from what the subclass writes and sets."""
        cls = type(self)
        caps = []
        if cls.load is not NativeAdapter.load:
            caps.append("load_state")
        if cls.referee is not NativeAdapter.referee:
            caps.append("bot_output")
        if self.stateless:
            caps.append("stateless")
        if self.copy_before_play:
            caps.append("undo")  # it keeps the game from before the last move
        # an adapter that writes no events of its own declares so (`no_events`): the harness
        # then compares its states and draw reports, not events it cannot have
        if cls.events is NativeAdapter.events:
            caps.append("no_events")
        if self.no_referee:
            caps.append("no_referee")
        return caps

    # --- the wire operations -------------------------------------------------------------
    def hello(self) -> JSON:
        return {"game": self.game_name, "engine": self.engine,
                "profiles": sorted(self.catalogue.profiles),
                "capabilities": self.capabilities()}

    def new_game(self, profile: str | Profile | None = None, seed: int | None = None) -> JSON:
        """A new native game. `profile` is a profile id of our catalogue or the harness's
        own `Profile` (over the wire, the one its `rules` object describes)."""
        if profile is not None and not isinstance(profile, str | Profile):
            raise BadState(f"profile must be a profile name, not {profile!r:.60}")
        if seed is not None and type(seed) is not int:
            raise BadState(f"seed must be a whole number, not {seed!r:.60}")
        prof = resolve_profile(self.catalogue, profile)
        self._end_game()
        self.profile, self.players = prof, players_of(prof)
        native = self.start(prof, self.default_seed if seed is None else seed)
        self.native, self.state, self.previous = native, native, None
        self._begin_game(native)
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
        if self.copy_before_play:
            self.previous = before  # untouched: the move was played on a copy
        return self.canonical(after), events

    def undo(self) -> JSON:
        """The game from before the last accepted move (kept by `copy_before_play`; what the
        adapter keeps outside the native object is not rolled back)."""
        if not self.copy_before_play:
            raise NotOffered(f"{self.engine} does not offer 'undo' (not in its capabilities)")
        if self.previous is None:
            raise IllegalAction("nothing to undo: no move played since the last new_game, "
                                "load_state or undo")
        self.native = self.state = self.previous
        self.previous = None
        return self.canonical(self.native)

    def observe(self) -> JSON:
        return self.canonical(self._native())

    def legal(self) -> JSON:
        raise NotOffered(f"{self.engine} does not offer 'legal' (not in its capabilities)")

    def load_state(self, state: JSON, profile: str | None = None) -> JSON:
        if type(self).load is NativeAdapter.load:
            raise NotOffered(f"{self.engine} does not offer 'load_state' (not in its "
                             "capabilities)")
        if isinstance(state, dict) and "profile" in state and not isinstance(
                state["profile"], str):
            raise BadState(f"the state's profile must be a profile name, not "
                           f"{state['profile']!r:.60}")
        pid = profile or (state.get("profile") if isinstance(state, dict) else None)
        pid = pid or self.profile.id  # a season's (not in the catalogue) when it is the game's
        prof = self.profile if pid == self.profile.id else self.catalogue.profile(pid)
        try:
            native = self.load(prof, state)
        except NativeRefusal as exc:
            raise BadState(str(exc) or "the engine cannot take this state") from None
        self._end_game()
        self.profile, self.players = prof, players_of(prof)
        self.native, self.state, self.previous = native, native, None
        self._begin_game(native)
        self.start_events = []
        return self.canonical(native)

    def bot_output(self, text: str) -> JSON:
        if type(self).referee is NativeAdapter.referee:
            raise NotOffered(f"{self.engine} does not offer 'bot_output' (not in its "
                             "capabilities)")
        return self.referee(self._native(), text)

    def close(self) -> None:
        self._end_game()
        self.native = self.state = self.previous = None

    # --- for kit classes built on this one (loop.LoopAdapter) ---------------------------
    def _begin_game(self, native: Any) -> None:
        """Called with a new native game (from `start` or `load`) before it is observed."""

    def _end_game(self) -> None:
        """Called before a new game replaces the last one, and on close."""

    def _native(self) -> Any:
        if self.native is None:
            raise IllegalAction("no game in progress: send new_game first")
        return self.native
