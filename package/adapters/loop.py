"""The bridge for engines that own their game loop and call the bots themselves.

Most competition engines are not driven move by move: `match.run(bots)` loops until the game
ends and asks each bot for its move (a callable, or an object with a method). gamecert
drives engines move by move (`apply`). `LoopAdapter` joins the two without plumbing in the
adapter:

* `new_game` starts the engine's loop (`run(native, seats)`) in a thread of its own and
  returns once the loop asks its first bot (or ends);
* each bot the loop calls is a `Seat`: the call blocks until the harness's next `apply`,
  whose canonical action `move(ask, action)` turns into what that bot returns to the engine;
* `apply` returns once the loop asks the next bot or the game ends, with the engine's draws
  reported (follow mode, as for any `NativeAdapter`) and the state observed.

A move the engine refuses surfaces as a refusal where the engine signals one: `move` raising
`NativeRefusal` (the engine's own check, or no native form of the action), the engine
asking again (`refused(before, after)`: by default the same bot asked again with the state
unchanged), or the loop raising one of `refusals` (the loop is then over). Anything else the
engine does with the move (it bans the bot, skips its turn...) is its behaviour, observed.

Time limits: the harness waits `loop_timeout` seconds for the loop's next bot call or its
end (a hung loop is a crash of the engine); a bot call waits `idle_timeout` seconds for the
harness's next action. No loop outlives its game: `new_game`, `load_state` and `close` end
the last one by raising `LoopStopped` in it (at its bot call, else asynchronously), and a
loop that will not stop within `stop_timeout` is reported on stderr (run such an engine as
a process, `gamecert.adapters.serve`, whose process the harness kills).

This module must not import the harness or the oracles.
"""

from __future__ import annotations

import contextlib
import ctypes
import queue
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

from gamecert.adapters.base import NativeAdapter, NativeRefusal
from gamecert.reference_engine.contract import IllegalAction

JSON = Any


class LoopStopped(BaseException):
    """Raised inside the engine's loop to end a game the harness has left. A BaseException,
    so an engine's `except Exception` around a bot call (a bot that crashed) lets it pass."""


class LoopHang(Exception):
    """The engine's loop neither asked a bot nor ended within the time limit."""


@dataclass
class Ask:
    """One bot call of the engine's loop: which seat (our player 1..N), with what the engine
    passed it, and the canonical state when it was asked."""

    player: int
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    state: JSON = None


@dataclass(frozen=True)
class BotRaises:
    """What `move` returns for a bot that fails the engine's way (it raises, as a crashed or
    timed-out bot does inside that engine): the seat raises `error` into the loop."""

    error: Exception


class Seat:
    """A bot as the engine sees it: call it (`seat(view)`), or call its `method` when the
    engine asks bot objects (`seat.get_move(view)`)."""

    def __init__(self, game: _Game, player: int, method: str | None = None) -> None:
        self._game = game
        self.player = player
        if method:
            setattr(self, method, self.__call__)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._game.ask(self.player, args, kwargs)

    def __repr__(self) -> str:
        return f"Seat({self.player})"


@dataclass
class _Game:
    """One run of the engine's loop and the two channels between it and the harness."""

    idle_timeout: float
    to_loop: queue.Queue[tuple[str, Any]] = field(default_factory=queue.Queue)
    to_harness: queue.Queue[tuple[str, Any]] = field(default_factory=queue.Queue)
    thread: threading.Thread | None = None
    pending: Ask | None = None  # the bot call waiting for the harness's action
    over: str | None = None  # why no more moves are taken (the loop ended, hung, ...)
    stopping: bool = False

    def ask(self, player: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """A bot call, inside the engine's loop: wait for the harness's next action."""
        if self.stopping:
            raise LoopStopped
        self.to_harness.put(("ask", Ask(player, args, kwargs)))
        try:
            kind, reply = self.to_loop.get(timeout=self.idle_timeout)
        except queue.Empty:  # the harness left without closing: the game ends here
            self.stopping = True
            raise LoopStopped from None
        if kind == "stop":
            raise LoopStopped
        if isinstance(reply, BotRaises):
            raise reply.error
        return reply


class LoopAdapter(NativeAdapter):
    """A native engine whose own loop calls the bots (`match.run(bots)`).

    Write `start(profile, seed)` (the native match, not yet running), `run(native, seats)`
    (run its loop with these bots; return when the game is over), `move(ask, action)` (the
    canonical action as what the asked bot returns to the engine) and `canonical(native)`;
    optionally `drawn`, `events`, `refused`. Set `seat_method` when the engine calls a method
    of its bot objects rather than the bots themselves. `copy_before_play` cannot be set: a
    running loop is not copied (so no `undo`).
    """

    seat_method: ClassVar[str | None] = None
    loop_timeout: ClassVar[float] = 3.0
    """Seconds `apply` and `new_game` wait for the loop's next bot call or its end (under the
    harness's own reply limit, 5 s by default, so a hang is reported, not only killed)."""
    idle_timeout: ClassVar[float] = 600.0
    """Seconds a bot call waits for the harness's next action before the loop is ended."""
    stop_timeout: ClassVar[float] = 2.0
    """Seconds given to an abandoned loop to end."""

    def __init__(self) -> None:
        if self.copy_before_play:
            raise TypeError(f"{type(self).__name__}: a running game loop cannot be copied; "
                            "a LoopAdapter does not take copy_before_play")
        super().__init__()
        self._game: _Game | None = None

    # --- what the maintainer writes ------------------------------------------------------
    def run(self, native: Any, seats: list[Seat]) -> Any:
        """Run the engine's game loop on `native` with `seats` (players 1..N in our order) as
        its bots; return when the game is over."""
        raise NotImplementedError

    def move(self, ask: Ask, action: JSON) -> Any:
        """What the bot asked in `ask` returns to the engine for canonical `action` (a native
        move, a text line...). Raise `NativeRefusal` when the engine has no such move; return
        `BotRaises(exc)` for a bot that fails by raising."""
        raise NotImplementedError

    def refused(self, before: Ask, after: Ask) -> str | None:
        """After the move answering `before`, the loop asked `after`: why that means the
        engine refused the move, or None. By default: it asked the same bot again and the
        state did not change (an engine that asks again after a bad move)."""
        if after.player == before.player and after.state == before.state:
            return (f"the engine asked player {after.player} again, its state unchanged "
                    "(it refused the move)")
        return None

    # --- the bridge ----------------------------------------------------------------------
    def seats(self, game: _Game) -> list[Seat]:
        return [Seat(game, p, self.seat_method) for p in range(1, self.players + 1)]

    def _begin_game(self, native: Any) -> None:
        game = self._game = _Game(self.idle_timeout)
        seats = self.seats(game)
        game.thread = threading.Thread(target=self._loop, args=(game, native, seats),
                                       name=f"gamecert-loop {self.engine}", daemon=True)
        game.thread.start()
        failure = self._next(game, native)
        if failure is not None:
            raise failure

    def _loop(self, game: _Game, native: Any, seats: list[Seat]) -> None:
        """The loop thread: the engine's loop, then a word to the harness on how it ended."""
        try:
            self.run(native, seats)
        except LoopStopped:
            game.to_harness.put(("stopped", None))
        except BaseException as exc:  # the engine's own failure: the harness reports it
            game.to_harness.put(("raised", exc))
        else:
            game.to_harness.put(("ended", None))

    def _next(self, game: _Game, native: Any) -> BaseException | None:
        """Wait for the loop's next bot call (then `game.pending`) or its end (then
        `game.over`); returns the exception the loop ended with, if any."""
        try:
            kind, payload = game.to_harness.get(timeout=self.loop_timeout)
        except queue.Empty:
            game.over = f"the engine's loop hung (no bot call within {self.loop_timeout:g} s)"
            self._stop(game)
            return LoopHang(f"the engine's game loop neither asked a bot nor ended within "
                            f"{self.loop_timeout:g} s")
        if kind == "ask":
            payload.state = self.canonical(native)
            game.pending = payload
            return None
        if kind == "ended":
            game.over = "the game is over: the engine's loop has ended"
            return None
        if kind == "raised":
            exc: BaseException = payload
            game.over = f"the engine's loop ended: {type(exc).__name__}: {exc}"
            return exc
        # "stopped": its bot call waited longer than idle_timeout, and the loop was ended
        game.over = (f"the game was left idle for over {self.idle_timeout:g} s: its loop was "
                     "ended")
        return IllegalAction(game.over)

    def apply(self, action: JSON) -> tuple[JSON, list[JSON]]:
        native = self._native()
        game = self._game
        if not isinstance(action, dict):
            raise IllegalAction(f"an action is a JSON object, not {action!r:.60}")
        if game is None or game.pending is None:
            raise IllegalAction(game.over if game and game.over else "no bot is being asked")
        asked = game.pending
        try:
            reply = self.move(asked, action)
        except NativeRefusal as exc:  # nothing handed over: the bot is still being asked
            raise IllegalAction(str(exc) or "the engine has no such move") from None
        except self.refusals as exc:
            raise IllegalAction(f"{type(exc).__name__}: {exc}") from None
        game.pending = None
        game.to_loop.put(("move", reply))
        failure = self._next(game, native)
        if failure is not None:
            if isinstance(failure, self.refusals):  # the engine refused by ending its loop
                self.report(native)
                raise IllegalAction(f"{type(failure).__name__}: {failure} (the engine's "
                                    "loop has ended)") from None
            raise failure
        if game.pending is not None:
            why = self.refused(asked, game.pending)
            if why:
                self.report(native)  # nothing was drawn for a refused move
                raise IllegalAction(why)
        state = game.pending.state if game.pending is not None else self.canonical(native)
        return state, [*self.events(native, action, native), *self.report(native)]

    def _end_game(self) -> None:
        game, self._game = self._game, None
        if game is not None:
            self._stop(game)

    def _stop(self, game: _Game) -> None:
        """End the loop thread: `stop` at its bot call; failing that, `LoopStopped` raised
        in it asynchronously (a loop busy in Python code), until `stop_timeout`."""
        game.stopping = True
        game.to_loop.put(("stop", None))
        thread = game.thread
        if thread is None or thread is threading.current_thread():
            return
        deadline = time.monotonic() + self.stop_timeout
        thread.join(min(0.2, self.stop_timeout))
        while thread.is_alive() and time.monotonic() < deadline:
            _raise_in(thread, LoopStopped)
            thread.join(0.05)
        if thread.is_alive():
            print(f"gamecert.adapters.loop: {self.engine}: the engine's loop did not stop "
                  f"within {self.stop_timeout:g} s (it swallows LoopStopped, or waits in "
                  "native code); serve it as a process to have it killed", file=sys.stderr)


def _raise_in(thread: threading.Thread, exc: type[BaseException]) -> None:
    """Raise `exc` in `thread` at its next Python instruction (CPython's async exception:
    the one way to stop a thread busy in an engine's own loop)."""
    if thread.ident is None:
        return
    with contextlib.suppress(Exception):
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                   ctypes.py_object(exc))


__all__ = ["Ask", "BotRaises", "LoopAdapter", "LoopHang", "LoopStopped", "Seat"]
