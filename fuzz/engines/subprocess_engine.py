"""An engine under test in another process: any program that speaks newline-delimited JSON
on stdin/stdout (`schemas/wire.schema.json`). It is untrusted: every call has a time limit,
replies have a size limit and a nesting limit, and the whole process group (every process
tagged with its token) is killed on the way out, at exit too.

This module must not import the lockstep, oracles or reports: it only talks to engines.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import time
import uuid
import weakref
from typing import Any

from gamecert.fuzz.engines.engine import (
    JSON,
    MAX_REPLY_DEPTH,
    EngineFault,
    EngineSpecError,
    Refused,
    engine_error,
    nests_deeper,
)
from gamecert.reference_engine.wire_rules import rules_json
from gamecert.spec import CatalogueError, Profile, load_catalogue

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
