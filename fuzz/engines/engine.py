"""Engines under test: anything that speaks the wire protocol's operations.

* `Engine` is the protocol the harness drives; `InProcessEngine` wraps a `Session` (a
  Python `Game`) and turns its exceptions into the protocol's error kinds.
* `SubprocessEngine` (subprocess_engine.py) runs any program that speaks the wire protocol,
  untrusted; `EngineRecipe` (recipes.py) is how a fresh engine is opened.

Both raise `Refused` when the engine answers with an error (an illegal action, a bad state):
that is the engine doing its job. They raise `EngineFault` when the engine misbehaves
(crash, hang, flood, garbage, protocol slip): that is a finding about the engine. One bug
reads the same either way: an exception in a Python engine and the internal error a
wire-protocol server reports for it are both "engine error: <what was raised>", so a crash
has one cause id in process and as a subprocess.

This module must not import the lockstep, oracles or reports: it only talks to engines.
"""

from __future__ import annotations

from typing import Any, Protocol

from gamecert.reference_engine.contract import BadState, IllegalAction, Session
from gamecert.spec import CatalogueError, Profile, load_catalogue

JSON = Any


class Refused(Exception):
    """The engine answered a request with an error reply."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class EngineFault(Exception):
    """The engine misbehaved: `kind` is crash, hang, flood, garbage or protocol."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class EngineSpecError(Exception):
    """The engine named on the command line cannot be found or started."""


def engine_error(detail: str) -> EngineFault:
    """The fault for an error the engine raised or reported (`detail`: what it raised,
    "ZeroDivisionError: division by zero"): the same words in process and over the wire."""
    return EngineFault("crash", f"engine error: {detail}")


# The deepest a reply may nest (a canonical state is a few levels deep). Deeper replies
# are refused where they are read: taking one apart anywhere later (comparing, copying,
# writing a trace) would recurse as deep, and end in a RecursionError of ours.
MAX_REPLY_DEPTH = 100


def nests_deeper(value: Any, limit: int = MAX_REPLY_DEPTH) -> bool:
    """Whether a parsed JSON value nests lists and objects more than `limit` deep; level
    by level, never by recursion."""
    level = [value]
    for _ in range(limit):
        below: list[Any] = []
        for v in level:
            if type(v) is dict:
                v = v.values()
            elif type(v) is not list:
                continue
            below += [c for c in v if type(c) is dict or type(c) is list]
        if not below:
            return False
        level = below
    return True


class Engine(Protocol):
    name: str
    # the events of the last new_game: the draws an engine without the `chance` capability
    # made at set-up, reported as {"chance": ...} (fuzz.engines.capabilities); [] when none
    @property
    def start_events(self) -> list[JSON]: ...

    def hello(self) -> JSON: ...
    # `profile`: an id, or the harness's own Profile (its parameters travel with new_game)
    def new_game(self, profile: str | Profile | None = None,
                 seed: int | None = None) -> JSON: ...
    def load_state(self, state: JSON) -> JSON: ...
    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]: ...
    def legal(self) -> JSON: ...
    def observe(self) -> JSON: ...
    def bot_output(self, text: str) -> JSON: ...
    # the capability `undo`: the last accepted apply taken back, the state before it
    def undo(self) -> JSON: ...
    def close(self) -> None: ...


def generation(engine: Engine) -> int:
    """Which life of the engine this is: a subprocess engine starts a new life (a new
    process, with no memory of the old one) each time it is restarted; an object lives on."""
    return int(getattr(engine, "generation", 0))


class InProcessEngine:
    """A `Session` called directly. Python exceptions other than the contract's are faults."""

    def __init__(self, session: Session[Any, Any]) -> None:
        self.session = session
        self.name = session.name
        self.start_events: list[JSON] = []

    def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except IllegalAction as exc:
            raise Refused("illegal", str(exc)) from None
        except (BadState, CatalogueError) as exc:
            raise Refused("bad-state", str(exc)) from None
        except Exception as exc:  # an engine bug is a finding, never a crash of ours
            raise engine_error(f"{type(exc).__name__}: {exc}") from None

    def hello(self) -> JSON:
        return self._call(self.session.hello)

    def new_game(self, profile: str | Profile | None = None, seed: int | None = None) -> JSON:
        if isinstance(profile, Profile) and _catalogued(profile):
            profile = profile.id  # a Session of any make reads its own catalogue's by id
        state = self._call(self.session.new_game, profile, seed)
        # a Session that draws for itself keeps its set-up draws' reports here
        self.start_events = list(getattr(self.session, "start_events", None) or [])
        return state

    def load_state(self, state: JSON) -> JSON:
        return self._call(self.session.load_state, state)

    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]:
        result: tuple[JSON, list[JSON]] = self._call(self.session.apply, action)
        return result

    def legal(self) -> JSON:
        return self._call(self.session.legal)

    def observe(self) -> JSON:
        return self._call(self.session.observe)

    def bot_output(self, text: str) -> JSON:
        return self._call(self.session.bot_output, text)

    def undo(self) -> JSON:
        undo = getattr(self.session, "undo", None)
        if undo is None:
            raise Refused("bad-request", f"{self.name} does not offer 'undo'")
        return self._call(undo)

    def close(self) -> None:
        self.session.close()


def _catalogued(profile: Profile) -> bool:
    """Is `profile` the bundled catalogue's own profile of its id (not one made elsewhere)?"""
    try:
        return load_catalogue(profile.game).profiles.get(profile.id) is profile
    except CatalogueError:
        return False
