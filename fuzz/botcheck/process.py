"""A competitor's bot as a process we own: start, byte channels with deadlines, kill.

Every read has a deadline and a size cap; the bot runs in its own process group (session)
and the whole group is killed when we are done, so a bot that forks, hangs or floods never
outlives bot-check nor blocks it. Times are taken on the monotonic clock. This module knows
nothing of any game: framing is the codecs' business (`Channel.read_message` takes a
function that says where the first complete message in the buffer ends).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from gamecert.fuzz.botcheck.transcript import Transcript

Complete = Callable[[bytes], int | None]
"""Given the bytes received so far, the length of the first complete message, or None."""


def read_schedstat(path: str) -> tuple[int, int] | None:
    """(ns on a CPU, ns runnable but waiting for a CPU) of one task, from Linux's
    /proc/.../schedstat; None where the kernel does not keep them."""
    try:
        with open(path, "rb") as f:
            run, wait, _ = f.read().split()
        return int(run), int(wait)
    except (OSError, ValueError):
        return None


def own_schedstat() -> tuple[int, int] | None:
    """This thread's schedstat: how long bot-check itself waited for a CPU (its own
    scheduling delay) is the second figure's growth."""
    return read_schedstat("/proc/thread-self/schedstat")


class BotUnusable(Exception):
    """The bot cannot be started at all (no such program, not executable, no pipes)."""


class ChannelClosed(Exception):
    """The bot closed its end (exited, crashed, or closed the pipe)."""


class ReadTimeout(Exception):
    """Nothing complete arrived before the deadline; `partial` is what did arrive."""

    def __init__(self, partial: bytes) -> None:
        super().__init__("time-out")
        self.partial = partial


class Flood(Exception):
    """More than the cap arrived without a complete message."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size} bytes without a complete message")
        self.size = size


def split_command(command: str | list[str]) -> list[str]:
    args = shlex.split(command) if isinstance(command, str) else list(command)
    if not args:
        raise BotUnusable("the bot command is empty")
    return args


def line_complete(buf: bytes) -> int | None:
    """A newline-terminated line."""
    i = buf.find(b"\n")
    return None if i < 0 else i + 1


class Channel:
    """One byte stream each way (stdin/stdout of the bot, or a pair of named pipes)."""

    def __init__(self, write_fd: int, read_fd: int, transcript: Transcript, *,
                 max_bytes: int = 1 << 20) -> None:
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.transcript = transcript
        self.max_bytes = max_bytes
        self.buf = b""
        self.eof = False
        self.sent_at = time.monotonic()
        os.set_blocking(write_fd, False)
        os.set_blocking(read_fd, False)

    def send(self, data: bytes, deadline: float) -> float:
        """Write all of `data` by `deadline`; returns the time the last byte left."""
        self.transcript.sent(data)
        view = memoryview(data)
        with selectors.DefaultSelector() as sel:
            sel.register(self.write_fd, selectors.EVENT_WRITE)
            while view:
                try:
                    n = os.write(self.write_fd, view)
                    view = view[n:]
                    continue
                except BlockingIOError:
                    pass
                except (BrokenPipeError, OSError) as exc:
                    raise ChannelClosed(f"writing to the bot failed: {exc}") from None
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise ReadTimeout(b"")  # the bot stopped reading its input
        self.sent_at = time.monotonic()
        return self.sent_at

    def pending(self) -> bytes:
        """Whatever the bot wrote without being asked, up to now (non-blocking)."""
        self._fill(0.0)
        out, self.buf = self.buf, b""
        return out

    def read_message(self, complete: Complete, deadline: float) -> tuple[bytes, float]:
        """The first complete message and the time its last byte arrived."""
        while True:
            n = complete(self.buf) if self.buf else None
            if n is not None:
                msg, self.buf = self.buf[:n], self.buf[n:]
                return msg, self.last_byte_at
            if len(self.buf) > self.max_bytes:
                raise Flood(len(self.buf))
            if self.eof:
                raise ChannelClosed("the bot closed its output")
            left = deadline - time.monotonic()
            if left <= 0:
                raise ReadTimeout(self.buf)
            self._fill(left)

    last_byte_at = 0.0

    def _fill(self, wait: float) -> None:
        with selectors.DefaultSelector() as sel:
            sel.register(self.read_fd, selectors.EVENT_READ)
            if not sel.select(wait):
                return
        while True:
            try:
                chunk = os.read(self.read_fd, 65536)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                self.eof = True
                return
            self.last_byte_at = time.monotonic()
            self.transcript.received(chunk)
            self.buf += chunk
            if len(self.buf) > self.max_bytes:
                return


class BotProcess:
    """The bot's program, started the way the competition starts it."""

    def __init__(self, command: str | list[str], *, cwd: Path | None = None,
                 extra_args: list[str] | None = None, stdio: bool = True) -> None:
        self.args = split_command(command) + list(extra_args or [])
        if cwd is not None:  # paths the user gave relative to here still name their files
            self.args = [str(Path(a).resolve()) if not Path(a).is_absolute()
                         and Path(a).exists() else a for a in self.args]
        self.cwd = cwd
        self.stderr_tail = b""
        self.stdout_bytes = 0  # what the bot printed on stdout when stdout is not the protocol
        self._stderr_lock = threading.Lock()
        try:
            self.proc = subprocess.Popen(
                self.args, stdin=subprocess.PIPE if stdio else subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                start_new_session=True, bufsize=0)
        except FileNotFoundError:
            raise BotUnusable(f"bot command not found: {self.args[0]!r}") from None
        except PermissionError:
            raise BotUnusable(f"bot command not executable: {self.args[0]!r}") from None
        except OSError as exc:
            raise BotUnusable(f"cannot start the bot {self.args[0]!r}: {exc.strerror}") from None
        # stderr is the bot's own log (and stdout too when the protocol is not on stdio):
        # drained all the time, so it never blocks the bot; only its tail is kept
        self._drain = threading.Thread(target=self._drain_log, args=(self.proc.stderr, False),
                                       daemon=True)
        self._drain.start()
        self._drain_out: threading.Thread | None = None
        if not stdio:
            self._drain_out = threading.Thread(target=self._drain_log,
                                               args=(self.proc.stdout, True), daemon=True)
            self._drain_out.start()

    def schedstat(self) -> tuple[int, int] | None:
        """The bot's main thread: (ns on a CPU, ns waiting for one); None off Linux."""
        return read_schedstat(f"/proc/{self.proc.pid}/schedstat")

    @property
    def name(self) -> str:
        return " ".join(shlex.quote(a) for a in self.args)

    def _drain_log(self, stream: IO[bytes] | None, stdout: bool) -> None:
        assert stream is not None
        with contextlib.suppress(OSError, ValueError):
            while True:
                chunk = stream.read(4096)
                if not chunk:
                    return
                with self._stderr_lock:
                    self.stderr_tail = (self.stderr_tail + chunk)[-4096:]
                    if stdout:
                        self.stdout_bytes += len(chunk)

    def settle(self, limit: float = 5.0) -> None:
        """Wait until the freshly started bot is idle (blocked, waiting for input), so its
        start-up is not timed as its first reply: competitions start bots before the game.
        Linux: the main thread sleeping with no CPU used between two looks; elsewhere a
        fixed half second."""
        stat = Path(f"/proc/{self.proc.pid}/stat")
        end = time.monotonic() + limit
        last: tuple[str, int] | None = None
        while time.monotonic() < end:
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                if last is None:
                    time.sleep(0.5)
                return
            now = (fields[0], int(fields[11]) + int(fields[12]))
            if now[0] in "SZX" and now == last:
                return
            last = now
            time.sleep(0.01)

    def stdio_channel(self, transcript: Transcript, max_bytes: int = 1 << 20) -> Channel:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        return Channel(self.proc.stdin.fileno(), self.proc.stdout.fileno(), transcript,
                       max_bytes=max_bytes)

    def exit_code(self, wait: float = 0.0) -> int | None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.proc.wait(timeout=wait) if wait else self.proc.poll()
        return None

    def describe_exit(self, wait: float = 0.2) -> str:
        code = self.exit_code(wait)
        if code is None:
            state = "still running"
        elif code < 0:
            state = f"killed by signal {signal.Signals(-code).name}"
        else:
            state = f"exited with code {code}"
        if code is not None:
            # its log ends with it: let the drain read to the end before taking the tail
            # (it last lost the race, and the message lacked the bot's last words); a child
            # still holding the pipe open only costs the short wait
            self._drain.join(timeout=0.5)
        with self._stderr_lock:
            tail = self.stderr_tail.decode("utf-8", "backslashreplace").strip()
        return state + (f"; its stderr ends: {tail[-600:]}" if tail else "")

    def close(self) -> None:
        proc = self.proc
        if proc.poll() is None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()  # a polite end of input first
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.2)
        # whatever it started goes too: the whole process group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=2)
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        self._drain.join(timeout=1)
        if self._drain_out is not None:
            self._drain_out.join(timeout=1)
        with contextlib.suppress(OSError):
            if proc.stderr is not None:
                proc.stderr.close()
