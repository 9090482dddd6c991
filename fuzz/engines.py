"""Engines under test: anything that speaks the wire protocol's operations.

* `InProcessEngine` wraps a `Session` (a Python `Game`) and turns its exceptions into the
  protocol's error kinds.
* `SubprocessEngine` runs any program that speaks newline-delimited JSON on stdin/stdout
  (`schemas/wire.schema.json`). It is untrusted: every call has a time limit, replies have a
  size limit, and the whole process group is killed on the way out.

Both raise `Refused` when the engine answers with an error (an illegal action, a bad state):
that is the engine doing its job. They raise `EngineFault` when the engine misbehaves
(crash, hang, flood, garbage, protocol slip): that is a finding about the engine.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from typing import Any, Protocol

from gamecert.reference_engine import reference_session
from gamecert.reference_engine.contract import BadState, IllegalAction, Session
from gamecert.spec import CatalogueError

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


class Engine(Protocol):
    name: str

    def hello(self) -> JSON: ...
    def new_game(self, profile: str | None = None, seed: int | None = None) -> JSON: ...
    def load_state(self, state: JSON) -> JSON: ...
    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]: ...
    def legal(self) -> JSON: ...
    def observe(self) -> JSON: ...
    def bot_output(self, text: str) -> JSON: ...
    def close(self) -> None: ...


class InProcessEngine:
    """A `Session` called directly. Python exceptions other than the contract's are faults."""

    def __init__(self, session: Session[Any, Any]) -> None:
        self.session = session
        self.name = session.name

    def _call(self, fn: Any, *args: Any) -> Any:
        try:
            return fn(*args)
        except IllegalAction as exc:
            raise Refused("illegal", str(exc)) from None
        except (BadState, CatalogueError) as exc:
            raise Refused("bad-state", str(exc)) from None
        except RecursionError as exc:
            raise EngineFault("crash", f"RecursionError: {exc}") from None
        except Exception as exc:  # an engine bug is a finding, never a crash of ours
            raise EngineFault("crash", f"{type(exc).__name__}: {exc}") from None

    def hello(self) -> JSON:
        return self._call(self.session.hello)

    def new_game(self, profile: str | None = None, seed: int | None = None) -> JSON:
        return self._call(self.session.new_game, profile, seed)

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

    def close(self) -> None:
        self.session.close()


class SubprocessEngine:
    """An engine in another process, spoken to over newline-delimited JSON."""

    def __init__(self, command: list[str], *, timeout: float = 5.0, start_timeout: float = 20.0,
                 max_reply_bytes: int = 8 << 20, cwd: str | None = None) -> None:
        if not command:
            raise EngineSpecError("empty engine command")
        self.command = command
        self.name = " ".join(shlex.quote(c) for c in command)
        self.timeout = timeout
        self.start_timeout = start_timeout
        self.max_reply_bytes = max_reply_bytes
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self._buf = b""
        self._next_id = 0
        self.stderr_tail = b""

    # --- process life --------------------------------------------------------------------
    def start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=self.cwd, start_new_session=True, bufsize=0)
        except FileNotFoundError:
            raise EngineSpecError(f"engine command not found: {self.command[0]!r}") from None
        except PermissionError:
            raise EngineSpecError(f"engine command not executable: {self.command[0]!r}") from None
        except OSError as exc:
            raise EngineSpecError(f"cannot start engine {self.name}: {exc.strerror}") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        os.set_blocking(self.proc.stderr.fileno(), False)
        self._buf = b""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                assert proc.stdin is not None
                proc.stdin.write(b'{"id": -1, "op": "bye"}\n')
                proc.stdin.flush()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.5)
        # the engine may have left children behind: the whole group goes
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
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
        with contextlib.suppress(Exception):
            self.close()

    # --- one request, one reply ----------------------------------------------------------
    def request(self, op: str, timeout: float | None = None, **fields: Any) -> JSON:
        if not self.alive():
            if self.proc is None:
                self.start()
            else:
                raise EngineFault("crash", self._exit_message())
        assert self.proc is not None and self.proc.stdin is not None
        self._next_id += 1
        rid = self._next_id
        line = json.dumps({"id": rid, "op": op, **fields}, separators=(",", ":")) + "\n"
        try:
            self.proc.stdin.write(line.encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineFault("crash", self._exit_message()) from None
        raw = self._read_line(self.timeout if timeout is None else timeout)
        try:
            reply = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            self.close()
            raise EngineFault("garbage", f"reply to {op} is not JSON: {raw[:200]!r}") from None
        if not isinstance(reply, dict) or reply.get("id") != rid:
            self.close()
            raise EngineFault("protocol", f"reply to {op} (id {rid}) is not a reply object "
                                          f"with that id: {raw[:200]!r}")
        if reply.get("ok") is True:
            return reply
        err = reply.get("error")
        if reply.get("ok") is False and isinstance(err, dict):
            kind, message = str(err.get("kind", "error")), str(err.get("message", ""))
            if kind == "internal":
                raise EngineFault("crash", f"engine reported an internal error: {message}")
            raise Refused(kind, message)
        self.close()
        raise EngineFault("protocol", f"reply to {op} has neither ok:true nor an error: "
                                      f"{raw[:200]!r}")

    def _read_line(self, timeout: float) -> bytes:
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        out, err = self.proc.stdout, self.proc.stderr
        with selectors.DefaultSelector() as sel:
            sel.register(out, selectors.EVENT_READ)
            if err is not None:
                sel.register(err, selectors.EVENT_READ)
            while True:
                nl = self._buf.find(b"\n")
                if nl >= 0:
                    line, self._buf = self._buf[:nl], self._buf[nl + 1:]
                    return line
                if len(self._buf) > self.max_reply_bytes:
                    self.close()
                    raise EngineFault("flood", f"reply longer than {self.max_reply_bytes} bytes")
                left = deadline - time.monotonic()
                if left <= 0:
                    self.close()
                    raise EngineFault("hang", f"no reply within {timeout:g} s")
                for key, _ in sel.select(left):
                    chunk = os.read(key.fd, 1 << 16)
                    if key.fileobj is err:
                        # keep the last words for the report; never let stderr block the engine
                        self.stderr_tail = (self.stderr_tail + chunk)[-4000:]
                        if not chunk:
                            sel.unregister(err)
                        continue
                    if not chunk:
                        code = self.proc.wait(timeout=1)
                        self.proc = None
                        raise EngineFault("crash", f"engine exited with code {code} "
                                          "mid-game" + self._stderr_note())
                    self._buf += chunk

    def _stderr_note(self) -> str:
        tail = self.stderr_tail.decode("utf-8", "replace").strip().splitlines()[-3:]
        return ("; stderr: " + " | ".join(tail)) if tail else ""

    def _exit_message(self) -> str:
        code = self.proc.poll() if self.proc else None
        if self.proc is not None and self.proc.stderr is not None:  # its last words, if any
            with contextlib.suppress(OSError, ValueError):
                while chunk := os.read(self.proc.stderr.fileno(), 1 << 16):
                    self.stderr_tail = (self.stderr_tail + chunk)[-4000:]
        return f"engine is not running (exit code {code})" + self._stderr_note()

    # --- protocol operations -------------------------------------------------------------
    def hello(self) -> JSON:
        return self.request("hello", timeout=self.start_timeout)

    def new_game(self, profile: str | None = None, seed: int | None = None) -> JSON:
        return self._field(self.request("new_game", profile=profile, seed=seed), "state")

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

    def _field(self, reply: JSON, name: str) -> JSON:
        if name not in reply:
            raise EngineFault("protocol", f"reply lacks {name!r}: {str(reply)[:200]}")
        return reply[name]


def _import_object(path: str) -> Any:
    module_name, _, attr = path.partition(":")
    if not module_name or not attr:
        raise EngineSpecError(f"engine {path!r} is not 'package.module:attr'")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m`: the current folder's modules
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineSpecError(f"cannot import {module_name!r}: {exc}") from None
    except Exception as exc:
        raise EngineSpecError(f"importing {module_name!r} failed: "
                              f"{type(exc).__name__}: {exc}") from None
    obj = module
    for part in attr.split("."):
        if not hasattr(obj, part):
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


def open_engine(game: str, engine: str | None = None, command: str | list[str] | None = None,
                timeout: float = 5.0) -> Engine:
    """The engine under test named on the command line."""
    if command is not None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        sub = SubprocessEngine(argv, timeout=timeout)
        sub.start()
        return sub
    if engine in (None, "reference"):
        return InProcessEngine(reference_session(game))
    assert engine is not None
    return in_process(_import_object(engine), engine)

