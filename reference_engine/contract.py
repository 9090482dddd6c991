"""The game contract every reference engine follows, and the JSON session every engine
under test offers.

Two levels:

* `Game` is pure and typed: `initial`, `current`, `legal`, `chance`, `apply`, `observe`,
  `load`. States are immutable values; chance is an explicit action chosen by the caller.
  A game may also offer `observe_next(before, seen, after)`: `observe(after)` built from
  `seen = observe(before)` for a state its `apply` reached from `before`, sharing the parts
  the step left alone. Only the harness uses it, on its own reference's states.
* `Session` is the stateful, JSON-only face of a game: exactly the operations of the wire
  protocol (`hello`, `new_game`, `load_state`, `apply`, `legal`, `observe`, `bot_output`,
  and `undo`, which takes back the last `apply`). The harness talks to every engine,
  in-process or subprocess, through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

from gamecert.spec import Catalogue, Profile, load_catalogue

JSON = Any
S = TypeVar("S")
A = TypeVar("A")

CHANCE = 0
"""`current()` for a state where the next action is a chance outcome."""
TERMINAL = -1
"""`current()` for a finished game."""


class IllegalAction(Exception):
    """The action is not allowed in this state (the engine refuses it)."""


class BadState(Exception):
    """A state given to `load` is not a state of this game; the message says why."""


@dataclass(frozen=True)
class Outcome(Generic[A]):
    action: A
    probability: Fraction


class Game(Protocol[S, A]):
    name: str

    def initial(self, profile: Profile, seed: int | None = None) -> S: ...
    def current(self, state: S) -> int: ...
    def legal(self, state: S) -> Sequence[A]: ...
    def chance(self, state: S) -> Sequence[Outcome[A]]: ...
    def apply(self, state: S, action: A) -> tuple[S, list[JSON]]: ...
    def observe(self, state: S) -> JSON: ...
    def load(self, profile: Profile, observed: JSON) -> S: ...
    def scores(self, state: S) -> list[int]: ...
    def action_to_json(self, state: S, action: A) -> JSON: ...
    def action_from_json(self, state: S, data: JSON) -> A: ...
    def referee(self, state: S, text: str) -> A: ...

    # Optional: `hidden_state = True` where `observe` leaves out state the game keeps and
    # derives (Carcassonne's features), so a step can depart there and show it only later;
    # `adopt(profile, observed)`, a lenient `load` for an engine's state after a departure.


def prob_text(p: Fraction) -> str:
    """Probabilities travel as exact fractions, e.g. "1/16384"."""
    return f"{p.numerator}/{p.denominator}"


def legal_json(game: Game[S, A], state: S) -> JSON:
    """The wire protocol's `legal` reply for `state`."""
    who = game.current(state)
    if who == TERMINAL:
        return {"to_move": None, "actions": []}
    if who == CHANCE:
        fast = getattr(game, "chance_json", None)  # optional: a game's own cached listing
        if fast is not None:
            return {"to_move": "chance", "outcomes": fast(state)}
        return {"to_move": "chance", "outcomes": outcomes_json(game, state)}
    return {"to_move": who, "actions": [game.action_to_json(state, a) for a in game.legal(state)]}


def outcomes_json(game: Game[S, A], state: S) -> list[JSON]:
    """Chance outcomes as wire JSON, probabilities as exact fraction strings."""
    texts: dict[int, str] = {}  # chance listings repeat a few probabilities many times
    outcomes = []
    for o in game.chance(state):
        p = texts.get(id(o.probability))
        if p is None:
            p = texts[id(o.probability)] = prob_text(o.probability)
        outcomes.append({"action": game.action_to_json(state, o.action), "p": p})
    return outcomes


class Session(Generic[S, A]):
    """One game in progress, seen only through canonical JSON. Not thread-safe."""

    def __init__(self, game: Game[S, A], name: str = "reference") -> None:
        self.game = game
        self.name = name
        self.catalogue = load_catalogue(game.name)
        self.profile = self.catalogue.profile()
        self.state: S | None = None
        self.previous: S | None = None  # the state before the last apply, for `undo`

    # --- wire operations -------------------------------------------------------------
    def hello(self) -> JSON:
        return {"game": self.game.name, "engine": self.name,
                "profiles": sorted(self.catalogue.profiles),
                # stateless: a new game (or a loaded state) forgets everything before it, so
                # the harness may reuse one process for many trial replays; chance: chance
                # outcomes are actions the caller chooses (nothing is random inside)
                "capabilities": ["load_state", "legal", "bot_output", "chance", "stateless"]}

    def new_game(self, profile: str | Profile | None = None, seed: int | None = None) -> JSON:
        """A new game under `profile`: a profile id of the catalogue, or the harness's own
        `Profile` object (played as it is, whatever its id)."""
        if profile is not None and not isinstance(profile, str | Profile):
            raise BadState(f"profile must be a profile name, not {profile!r:.60}")
        if seed is not None and type(seed) is not int:
            raise BadState(f"seed must be a whole number, not {seed!r:.60}")
        self.profile = resolve_profile(self.catalogue, profile)
        self.state = self.game.initial(self.profile, seed)
        self.previous = None
        return self.game.observe(self.state)

    def load_state(self, state: JSON, profile: str | None = None) -> JSON:
        if isinstance(state, dict) and "profile" in state and not isinstance(state["profile"], str):
            raise BadState(f"the state's profile must be a profile name, not "
                           f"{state['profile']!r:.60}")
        pid = profile or _profile_of(state) or self.profile.id
        # the game's own profile when the state names it: one the catalogue does not list
        # (a season's, handed over by new_game) included
        prof = self.profile if pid == self.profile.id else self.catalogue.profile(pid)
        self.state = self.game.load(prof, state)
        self.profile = prof
        self.previous = None
        return self.game.observe(self.state)

    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]:
        state = self._state()
        act = self.game.action_from_json(state, action)
        self.state, events = self.game.apply(state, act)
        self.previous = state  # states are values: keeping the one before costs nothing
        return self.game.observe(self.state), events

    def undo(self) -> JSON:
        """Take back the last accepted `apply` (one step): the state as it was before it."""
        if self.previous is None:
            raise IllegalAction("nothing to undo: no action applied since the last new_game, "
                                "load_state or undo")
        self.state, self.previous = self.previous, None
        return self.game.observe(self.state)

    def legal(self) -> JSON:
        return legal_json(self.game, self._state())

    def observe(self) -> JSON:
        return self.game.observe(self._state())

    def bot_output(self, text: str) -> JSON:
        state = self._state()
        return self.game.action_to_json(state, self.game.referee(state, text))

    def close(self) -> None:
        self.state = self.previous = None

    def _state(self) -> S:
        if self.state is None:
            raise IllegalAction("no game in progress: send new_game or load_state first")
        return self.state


def resolve_profile(catalogue: Catalogue, profile: str | Profile | None) -> Profile:
    """The `Profile` a new game is played under: the harness's own object when it hands one
    over (it may be a profile the catalogue does not list), else the catalogue's by id."""
    if isinstance(profile, Profile):
        if profile.game != catalogue.game:
            raise BadState(f"profile {profile.id!r} is a {profile.game} profile, not "
                           f"{catalogue.game}")
        return profile
    if profile is not None and not isinstance(profile, str):
        raise BadState(f"profile must be a profile name, not {profile!r:.60}")
    return catalogue.profile(profile)


def _profile_of(state: JSON) -> str | None:
    if isinstance(state, dict) and isinstance(state.get("profile"), str):
        return str(state["profile"])
    return None
