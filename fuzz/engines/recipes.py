"""Engine recipes: how to open a fresh engine (a new process, a new object) from the command
line's --engine or --engine-cmd, the handshake (`hello`) and what it declares.

An `EngineRecipe` is what flows through the harness, not one live engine: the campaign, the
minimiser, the confirmation replays and `replay` each open the engines they need from it,
so state kept inside an engine process cannot leak from one attempt into the next. An
engine handed over open is shared (`shared_recipe`), and its findings say so.

This module must not import the lockstep, oracles or reports: it only opens engines.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gamecert.fuzz.engines.engine import (
    JSON,
    Engine,
    EngineFault,
    EngineSpecError,
    InProcessEngine,
    Refused,
)
from gamecert.fuzz.engines.subprocess_engine import SubprocessEngine
from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import Session
from gamecert.spec import Profile

STATELESS = "stateless"  # hello capability: a new game forgets everything before it


def handshake(engine: Engine, game: str,
              profile_id: str | Profile) -> tuple[JSON, str | None]:
    """What every run does first on a new engine (the campaign, the minimiser, `replay`):
    `hello`, then a new game. Returns what hello said, and why the engine is unusable (or
    None). The same requests in the same order everywhere, so an engine that counts its
    requests sees the same count on a replay as in the campaign."""
    hello: JSON = None
    try:
        hello = engine.hello()
        if not isinstance(hello, dict) or hello.get("game") != game:
            said = hello.get("game") if isinstance(hello, dict) else hello
            return hello, f"engine says it plays {said!r}, not {game!r}"
        engine.new_game(profile_id, None)  # a Profile (a season's): its rules travel too
    except EngineFault as exc:
        return hello, f"engine failed at start-up ({exc.kind}): {exc.message}"
    except Refused as exc:
        pid = profile_id.id if isinstance(profile_id, Profile) else profile_id
        return hello, f"engine refused to start a {pid!r} game: {exc}"
    return hello, None


def declares_stateless(hello: JSON) -> bool:
    caps = hello.get("capabilities") if isinstance(hello, dict) else None
    return isinstance(caps, list) and STATELESS in caps


class _Borrowed:
    """An engine someone else opened and will close: closing this view does nothing."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = engine.name

    @property
    def start_events(self) -> list[JSON]:
        return self.engine.start_events

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def hello(self) -> JSON:
        return self.engine.hello()

    def new_game(self, profile: str | Profile | None = None, seed: int | None = None) -> JSON:
        return self.engine.new_game(profile, seed)

    def load_state(self, state: JSON) -> JSON:
        return self.engine.load_state(state)

    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]:
        return self.engine.apply(action)

    def legal(self) -> JSON:
        return self.engine.legal()

    def observe(self) -> JSON:
        return self.engine.observe()

    def bot_output(self, text: str) -> JSON:
        return self.engine.bot_output(text)

    def undo(self) -> JSON:
        return self.engine.undo()

    def close(self) -> None:
        pass


@dataclass
class EngineRecipe:
    """How to open a fresh engine under test: a new process for a command, a new object for
    a Python engine. `fresh` is False for an engine that was handed over already open (a
    test's or a benchmark's): then every `open()` is that same engine, and whatever is
    confirmed on it is confirmed on a shared engine only."""

    game: str
    name: str
    factory: Callable[[], Engine]
    fresh: bool = True
    spec: dict[str, Any] = field(default_factory=dict)

    def open(self) -> Engine:
        return self.factory()


def command_recipe(game: str, command: str | list[str], timeout: float = 5.0) -> EngineRecipe:
    """A wire-protocol program; each `open()` starts a new process."""
    argv = split_command(command) if isinstance(command, str) else list(command)
    if not argv or not argv[0]:
        raise EngineSpecError("the engine command is empty")
    if not (math.isfinite(timeout) and timeout > 0):
        raise EngineSpecError(f"the reply time limit must be a positive number of seconds, "
                              f"not {timeout!r}")

    def factory() -> Engine:
        # start-up (imports, loading data) may take longer than a reply: four replies' time
        sub = SubprocessEngine(argv, timeout=timeout, start_timeout=4 * timeout, game=game)
        sub.start()
        return sub

    name = " ".join(shlex.quote(c) for c in argv)
    return EngineRecipe(game, name, factory, True,
                        {"kind": "command", "command": argv, "timeout_s": timeout})


def split_command(command: str) -> list[str]:
    """A command line as a shell would split it; a clear error where it cannot be."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise EngineSpecError(f"cannot parse the engine command {command!r}: {exc}") from None
    if not argv:
        raise EngineSpecError("the engine command is empty")
    return argv


def object_recipe(game: str, spec: str) -> EngineRecipe:
    """`reference`, `package.module:attr` or `path/to/file.py:attr`; each `open()` makes a
    new object (a Session handed over as an instance can only be shared).
    `minimal:<spec>` is that engine behind the minimum capabilities, `bare:<spec>` the
    same with no events of its own (fuzz.engines.minimal)."""
    if spec.startswith(("minimal:", "bare:")):
        return _minimal_recipe(game, spec)
    if spec == "reference":
        return EngineRecipe(game, "reference",
                            lambda: InProcessEngine(reference_session(game)), True,
                            {"kind": "python", "object": "reference"})
    obj = _import_object(spec)
    first = in_process(obj, spec)
    if isinstance(obj, Session):  # one live session: nothing to make a fresh one from
        return EngineRecipe(game, spec, lambda: _Borrowed(first), False,
                            {"kind": "python", "object": spec})
    made = [first]

    def factory() -> Engine:
        return made.pop() if made else in_process(obj, spec)

    return EngineRecipe(game, spec, factory, True, {"kind": "python", "object": spec})


def _minimal_recipe(game: str, spec: str) -> EngineRecipe:
    from gamecert.fuzz.engines.minimal import BARE, minimal_session

    bare = spec.startswith(BARE)
    inner = object_recipe(game, spec.partition(":")[2])

    def factory() -> Engine:
        opened = inner.open()
        session = getattr(opened, "session", None)
        if not isinstance(session, Session):
            raise EngineSpecError(f"{spec}: only a Python game or session can be wrapped")
        return InProcessEngine(minimal_session(session, bare))

    return EngineRecipe(game, spec, factory, inner.fresh, {"kind": "python", "object": spec})


def shared_recipe(engine: Engine) -> EngineRecipe:
    """An engine opened by the caller, who closes it: it cannot be reopened fresh."""
    return EngineRecipe(getattr(engine, "game", ""), engine.name, lambda: _Borrowed(engine),
                        False, {"kind": "shared", "name": engine.name})


def as_recipe(engine: Engine | EngineRecipe) -> EngineRecipe:
    return engine if isinstance(engine, EngineRecipe) else shared_recipe(engine)


def _load_file_module(path: str) -> Any:
    """Load a Python file by its path, from any current folder."""
    if not os.path.isfile(path):
        raise EngineSpecError(f"no such Python file: {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    stem = os.path.splitext(os.path.basename(path))[0]
    name = f"gamecert_engine_{abs(hash(os.path.abspath(path))):x}_{stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise EngineSpecError(f"cannot load {path!r} as a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if folder not in sys.path:
        sys.path.append(folder)  # its neighbours, as `python path/to/file.py` would see them
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise EngineSpecError(f"loading {path!r} failed: {type(exc).__name__}: {exc}") from None
    return module


def _import_object(path: str) -> Any:
    module_name, _, attr = path.rpartition(":")
    if not module_name or not attr:
        raise EngineSpecError(f"engine {path!r} is not 'package.module:attr' or "
                              "'path/to/file.py:attr'")
    if module_name.endswith(".py") or os.sep in module_name or "/" in module_name:
        return _get_attr(_load_file_module(module_name), module_name, attr)
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: the current folder's modules
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineSpecError(f"cannot import {module_name!r}: {exc}") from None
    except Exception as exc:
        raise EngineSpecError(f"importing {module_name!r} failed: "
                              f"{type(exc).__name__}: {exc}") from None
    return _get_attr(module, module_name, attr)


def _get_attr(module: Any, module_name: str, attr: str) -> Any:
    obj = module
    for part in attr.split("."):
        if not part.isidentifier() or not hasattr(obj, part):
            raise EngineSpecError(f"{module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    return obj


def in_process(obj: Any, name: str) -> InProcessEngine:
    """Wrap a Game class, a Game instance, a Session or a factory of one."""
    if isinstance(obj, Session):
        return InProcessEngine(obj)
    if isinstance(obj, type):
        try:
            obj = obj()
        except Exception as exc:
            raise EngineSpecError(f"cannot create {name}: {type(exc).__name__}: {exc}") from None
    if isinstance(obj, Session):
        return InProcessEngine(obj)
    if all(hasattr(obj, m) for m in ("initial", "apply", "observe", "load", "name")):
        return InProcessEngine(Session(obj, name=name))
    raise EngineSpecError(f"{name} is neither a Game nor a Session")


def engine_recipe(game: str, engine: str | None = None,
                  command: str | list[str] | None = None, timeout: float = 5.0) -> EngineRecipe:
    """The recipe for the engine under test named on the command line."""
    if command is not None:
        return command_recipe(game, command, timeout)
    return object_recipe(game, engine or "reference")


def open_engine(game: str, engine: str | None = None, command: str | list[str] | None = None,
                timeout: float = 5.0) -> Engine:
    """The engine under test named on the command line, opened."""
    return engine_recipe(game, engine, command, timeout).open()
