"""Engines under test: anything that speaks the wire protocol's operations.

* `InProcessEngine` wraps a `Session` (a Python `Game`) and turns its exceptions into the
  protocol's error kinds.
* `SubprocessEngine` runs any program that speaks newline-delimited JSON on stdin/stdout
  (`schemas/wire.schema.json`). It is untrusted: every call has a time limit, replies have a
  size limit, and the whole process group is killed on the way out.

Both raise `Refused` when the engine answers with an error (an illegal action, a bad state):
that is the engine doing its job. They raise `EngineFault` when the engine misbehaves
(crash, hang, flood, garbage, protocol slip): that is a finding about the engine. One bug
reads the same either way: an exception in a Python engine and the internal error a
wire-protocol server reports for it are both "engine error: <what was raised>", so a crash
has one cause id in process and as a subprocess.

An `EngineRecipe` is what flows through the harness: how to open a fresh engine (a new
process, a new object), not one live engine. The campaign, the minimiser, the confirmation
replays and `replay` each open the engines they need from it, so state kept inside an
engine process cannot leak from one attempt into the next.

This module must not import the lockstep, oracles or reports: it only talks to engines.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import importlib.util
import json
import math
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
import uuid
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import BadState, IllegalAction, Session
from gamecert.reference_engine.wire_rules import rules_json
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
    # made at set-up, reported as {"chance": ...} (fuzz.capabilities); [] when none
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


TOKEN_VAR = "GAMECERT_ENGINE_TOKEN"
_OPEN: weakref.WeakSet[SubprocessEngine] = weakref.WeakSet()


def _proc_children() -> dict[int, list[int]]:
    """Parent pid -> child pids, read from /proc (empty where there is no /proc)."""
    children: dict[int, list[int]] = {}
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            # the command name may hold spaces and parentheses: fields follow the last ')'
            fields = stat[stat.rfind(b")") + 2:].split()
            if len(fields) > 1:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def descendants(pid: int) -> list[int]:
    """Every living descendant of `pid` (children, their children, ...)."""
    children = _proc_children()
    out: list[int] = []
    todo = list(children.get(pid, []))
    while todo:
        child = todo.pop()
        out.append(child)
        todo.extend(children.get(child, []))
    return out


def kill_tagged(token: str, var: str = TOKEN_VAR) -> None:
    """Kill every process of ours whose environment carries this engine's token (or `var`
    set to `token`): the descendants that escaped the engine's process group and lost
    their parent."""
    needle = f"{var}={token}".encode()
    me = os.getpid()
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit() or int(entry.name) == me:
                continue
            try:
                with open(f"/proc/{entry.name}/environ", "rb") as f:
                    env = f.read()
            except OSError:
                continue  # not ours to read, or already gone
            if needle in env.split(b"\0"):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(int(entry.name), signal.SIGKILL)


@atexit.register
def close_all() -> None:
    """Whatever happens to gamecert, the engines it started do not outlive it."""
    for engine in list(_OPEN):
        with contextlib.suppress(Exception):
            engine.close()


class SubprocessEngine:
    """An engine in another process, spoken to over newline-delimited JSON."""

    def __init__(self, command: list[str], *, timeout: float = 5.0, start_timeout: float = 20.0,
                 max_reply_bytes: int = 8 << 20, cwd: str | None = None,
                 game: str | None = None) -> None:
        if not command:
            raise EngineSpecError("empty engine command")
        self.command = command
        self.name = " ".join(shlex.quote(c) for c in command)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.max_reply_bytes = max_reply_bytes
        self.cwd = cwd
        self.game = game  # to send new_game the rules of a profile named by its id
        self.proc: subprocess.Popen[bytes] | None = None
        self._buf = bytearray()  # grows in place: a flood is read at the pipe's speed
        self._next_id = 0
        self.stderr_tail = b""
        # Every process of this engine, and everything it starts, carries this token in its
        # environment: that is how close() finds descendants that left the process group
        # (setsid) or were orphaned, without trusting the engine to clean up.
        self.token = uuid.uuid4().hex
        self.generation = 0
        self.start_events: list[JSON] = []
        self._pidfd: int | None = None  # readable once the process has ended (Linux)
        self._games = 0  # new games this process started: a death before the first is at
        # start-up, after it mid-game
        _OPEN.add(self)

    # --- process life --------------------------------------------------------------------
    def start(self) -> None:
        try:
            env = {**os.environ, TOKEN_VAR: self.token}
            self.proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=self.cwd, start_new_session=True, bufsize=0,
                env=env)
        except FileNotFoundError:
            raise EngineSpecError(f"engine command not found: {self.command[0]!r}") from None
        except PermissionError:
            raise EngineSpecError(f"engine command not executable: {self.command[0]!r}") from None
        except OSError as exc:
            raise EngineSpecError(f"cannot start engine {self.name}: {exc.strerror}") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        os.set_blocking(self.proc.stderr.fileno(), False)
        self._buf = bytearray()
        self._games = 0
        self.stderr_tail = b""  # this process's last words, not an earlier one's
        self._pidfd = None
        with contextlib.suppress(AttributeError, OSError):  # elsewhere: polled instead
            self._pidfd = os.pidfd_open(self.proc.pid)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def close(self, polite: bool = True) -> None:
        """Stop the engine: `bye` first when `polite` (not after a fault: a hung engine
        would only make us wait), then its process group and every descendant."""
        proc, self.proc = self.proc, None
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = None
        if proc is None:
            kill_tagged(self.token)  # an engine that died may have left descendants
            return
        self.generation += 1
        if polite and proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                assert proc.stdin is not None
                proc.stdin.write(b'{"id": -1, "op": "bye"}\n')
                proc.stdin.flush()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.5)
        # the engine may have left children behind: the whole group goes, and every
        # descendant, even one in a session of its own
        tree = descendants(proc.pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in tree:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        kill_tagged(self.token)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()

    def restart(self) -> None:
        self.close()
        self.start()

    def __del__(self) -> None:
        # at shutdown, a signal may arrive mid-close: nothing may escape a finaliser
        with contextlib.suppress(BaseException):
            self.close()

    # --- one request, one reply ----------------------------------------------------------
    def request(self, op: str, timeout: float | None = None, **fields: Any) -> JSON:
        if not self.alive():
            if self.proc is None:
                self.start()
            else:
                message = self._exit_message()
                self.close()
                raise EngineFault("crash", message)
        assert self.proc is not None and self.proc.stdin is not None
        self._next_id += 1
        rid = self._next_id
        line = json.dumps({"id": rid, "op": op, **fields}, separators=(",", ":")) + "\n"
        try:
            self.proc.stdin.write(line.encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            message = self._exit_message()
            self.close()
            raise EngineFault("crash", message) from None
        raw = self._read_line(self.timeout if timeout is None else timeout, op)
        if op == "new_game":
            self._games += 1  # from here on, a death is mid-game
        try:
            reply = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            self.close(polite=False)
            raise EngineFault("garbage", f"reply to {op} is not JSON: {raw[:200]!r}") from None
        except RecursionError:  # nested deeper than any reader can take apart
            self.close(polite=False)
            raise EngineFault("garbage", f"reply to {op} nests deeper than "
                                         f"{MAX_REPLY_DEPTH} levels: {raw[:60]!r}...") from None
        # a bracket count within the limit cannot nest past it: only longer replies walked
        if raw.count(b"[") + raw.count(b"{") > MAX_REPLY_DEPTH and nests_deeper(reply):
            self.close(polite=False)
            raise EngineFault("garbage", f"reply to {op} nests deeper than "
                                         f"{MAX_REPLY_DEPTH} levels: {raw[:60]!r}...")
        if not isinstance(reply, dict) or reply.get("id") != rid:
            self.close()
            raise EngineFault("protocol", f"reply to {op} (id {rid}) is not a reply object "
                                          f"with that id: {raw[:200]!r}")
        if reply.get("ok") is True:
            return reply
        err = reply.get("error")
        if reply.get("ok") is False and isinstance(err, dict):
            kind, message = str(err.get("kind", "error")), str(err.get("message", ""))
            if kind == "internal":  # the engine's own crash report
                raise engine_error(message)
            raise Refused(kind, message)
        self.close()
        raise EngineFault("protocol", f"reply to {op} has neither ok:true nor an error: "
                                      f"{raw[:200]!r}")

    def _read_line(self, timeout: float, op: str = "a request") -> bytes:
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        out, err = self.proc.stdout, self.proc.stderr
        with selectors.DefaultSelector() as sel:
            sel.register(out, selectors.EVENT_READ)
            if err is not None:
                sel.register(err, selectors.EVENT_READ)
            # the engine's end, seen even while a grandchild keeps its stdout open (then no
            # end of file ever comes, and the crash would pass for a hang)
            if self._pidfd is not None:
                sel.register(self._pidfd, selectors.EVENT_READ)
            while True:
                nl = self._buf.find(b"\n")
                if nl >= 0:
                    line = bytes(self._buf[:nl])
                    del self._buf[:nl + 1]
                    return line
                if len(self._buf) > self.max_reply_bytes:
                    self.close(polite=False)
                    raise EngineFault("flood", f"reply longer than {self.max_reply_bytes} bytes")
                left = deadline - time.monotonic()
                if left <= 0:
                    self.close(polite=False)
                    raise EngineFault("hang", f"no reply within {timeout:g} s")
                # without a pidfd, look at the process itself now and then
                ready = sel.select(left if self._pidfd is not None else min(left, 0.2))
                if not ready and self._pidfd is None and self.proc.poll() is not None:
                    self._ended(op)
                    continue
                for key, _ in ready:
                    if key.fileobj == self._pidfd:
                        self._ended(op)  # returns when the engine's last reply was whole
                        break
                    chunk = os.read(key.fd, 1 << 16)
                    if key.fileobj is err:
                        # keep the last words for the report; never let stderr block the engine
                        self.stderr_tail = (self.stderr_tail + chunk)[-4000:]
                        if not chunk:
                            sel.unregister(err)
                        continue
                    if not chunk:
                        self._ended(op, closed=True)
                    self._buf += chunk

    def _ended(self, op: str, closed: bool = False) -> None:
        """The engine exited (or closed its output): return if a whole reply is still to be
        read, else raise the crash, with its exit code and its last words on stderr."""
        assert self.proc is not None and self.proc.stdout is not None
        if not closed:  # what it wrote before it exited is still in the pipe
            for _ in range(self.max_reply_bytes >> 16):
                try:
                    chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                except (BlockingIOError, OSError):
                    break
                if not chunk:
                    break
                self._buf += chunk
            if b"\n" in self._buf:
                with contextlib.suppress(OSError):  # seen at the next request, not this one
                    if self._pidfd is not None:
                        os.close(self._pidfd)
                self._pidfd = None
                return
        try:
            code: int | None = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:  # closed stdout, still running
            code = None
        self._drain_stderr()  # its last words may still be in the pipe
        note = self._stderr_note()
        self.close()
        when = "mid-game" if self._games else "at start-up"
        what = ("engine closed its output (and kept running)" if code is None else
                f"engine exited with code {code}")
        # the request it died on comes after the first "; ": one cause, whichever it was
        raise EngineFault("crash", f"{what} {when}; it was answering {op}{note}")

    def _drain_stderr(self) -> None:
        err = self.proc.stderr if self.proc else None
        if err is None:
            return
        for _ in range(64):  # at most 4 MB: the tail is all we keep
            try:
                chunk = os.read(err.fileno(), 1 << 16)
            except (BlockingIOError, OSError, ValueError):
                return
            if not chunk:
                return
            self.stderr_tail = (self.stderr_tail + chunk)[-4000:]

    def _stderr_note(self) -> str:
        tail = self.stderr_tail.decode("utf-8", "replace").strip().splitlines()[-3:]
        return ("; stderr: " + " | ".join(tail)) if tail else ""

    def _exit_message(self) -> str:
        code = self.proc.poll() if self.proc else None
        self._drain_stderr()
        return f"engine is not running (exit code {code})" + self._stderr_note()

    # --- protocol operations -------------------------------------------------------------
    def hello(self) -> JSON:
        return self.request("hello", timeout=self.start_timeout)

    def new_game(self, profile: str | Profile | None = None, seed: int | None = None) -> JSON:
        self.start_events = []  # a failed new_game leaves none behind from the last one
        pid, rules = self._rules(profile)
        reply = self.request("new_game", profile=pid, seed=seed,
                             **({"rules": rules} if rules is not None else {}))
        events = reply.get("events", [])
        if not isinstance(events, list):
            raise EngineFault("protocol", "new_game reply: events is not a list")
        self.start_events = events
        return self._field(reply, "state")

    def load_state(self, state: JSON) -> JSON:
        return self._field(self.request("load_state", state=state), "state")

    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]:
        reply = self.request("apply", action=action)
        events = self._field(reply, "events")
        if not isinstance(events, list):
            raise EngineFault("protocol", "apply reply: events is not a list")
        return self._field(reply, "state"), events

    def legal(self) -> JSON:
        reply = self.request("legal")
        return {k: v for k, v in reply.items() if k not in ("id", "ok")}

    def observe(self) -> JSON:
        return self._field(self.request("observe"), "state")

    def bot_output(self, text: str) -> JSON:
        return self._field(self.request("bot_output", text=text), "action")

    def undo(self) -> JSON:
        return self._field(self.request("undo"), "state")

    def _rules(self, profile: str | Profile | None) -> tuple[str | None, JSON]:
        """The profile id and the `rules` object (reference_engine.wire_rules) a new_game
        request carries: from the Profile handed over, else from the game's catalogue; no
        rules where neither is known (the engine then judges the id alone)."""
        if isinstance(profile, Profile):
            return profile.id, rules_json(profile)
        if self.game is None:
            return profile, None
        try:
            return profile, rules_json(load_catalogue(self.game).profile(profile))
        except (CatalogueError, KeyError):
            return profile, None

    def _field(self, reply: JSON, name: str) -> JSON:
        if name not in reply:
            raise EngineFault("protocol", f"reply lacks {name!r}: {str(reply)[:200]}")
        return reply[name]


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
    same with no events of its own (fuzz.minimal)."""
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
    from gamecert.fuzz.minimal import BARE, minimal_session

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

