"""Rounds on a Dask distributed cluster (`certify --cluster tcp://HOST:8786`).

Users run `dask-scheduler` and `dask-worker` as they already do (docs/cluster.md); this
module connects a `distributed.Client` to the scheduler and submits rounds as tasks. The
campaign's setup, plain data (the engine's recipe spec: a command, run on the worker's host
with the same argv, or a `module:attr` the worker imports; the seed; the database
snapshot), is scattered to the workers once; a task names it and carries the round number
and the muted rules. Each worker thread keeps one engine open per campaign,
so an engine process is started once per worker, not once per round; `close()` tells every
worker to close the campaign's engines.

Ctrl-C: the client stops submitting, sets a distributed Event the running rounds look at
(at most twice a second), and cancels what has not started.

This module talks to Dask; it must not judge findings or write reports.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from gamecert.fuzz.search.rounds import (
    RoundError,
    RoundJob,
    RoundOutcome,
    RoundPlayer,
    RoundSetup,
    StopFlag,
    hypothesis_home,
    open_player,
)
from gamecert.fuzz.step.lockstep import Coverage

POLL_SECONDS = 0.25
_PLAYERS: dict[tuple[str, int], RoundPlayer] = {}  # (campaign, thread) -> its player
_PLAYERS_LOCK = threading.Lock()


class _RemoteStop:
    """The campaign's stop flag seen from a worker: a distributed Event, asked at most
    twice a second (the lockstep asks at every step)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.checked = 0.0
        self.value = False

    def is_set(self) -> bool:
        now = time.monotonic()
        if not self.value and now - self.checked >= 0.5:
            self.checked = now
            try:
                self.value = bool(_dask().Event(self.name).is_set())
            except Exception:  # no scheduler to ask (a test calling play_task): go on
                self.value = False
        return self.value


def play_task(setup: RoundSetup, token: str, round_no: int,
              muted: list[str]) -> dict[str, Any]:
    """A round, on a cluster worker: its outcome as plain data."""
    key = (token, threading.get_ident())
    with _PLAYERS_LOCK:
        player = _PLAYERS.get(key)
    with hypothesis_home(_worker_home()):
        if player is None:
            player = open_player(setup, _RemoteStop(f"gamecert-stop-{token}"),
                                 worker=_worker_name())
            with _PLAYERS_LOCK:
                _PLAYERS[key] = player
        return player.play(RoundJob(round_no, frozenset(muted))).portable()


def close_task(token: str) -> int:
    """On every worker after a campaign: close its engines. Returns how many."""
    with _PLAYERS_LOCK:
        mine = [k for k in _PLAYERS if k[0] == token]
        players = [_PLAYERS.pop(k) for k in mine]
    for player in players:
        player.engine.close()
    return len(players)


def _dask() -> Any:
    """Dask distributed, an optional dependency (gamecert[cluster]), untyped to mypy."""
    return importlib.import_module("distributed")


def _worker_home() -> Path:
    """Hypothesis's folder on a worker host: its user's cache, as for a campaign."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gamecert" / "hypothesis-worker"


def _worker_name() -> str:
    try:
        return str(_dask().get_worker().address)
    except Exception:
        return "dask"


class DaskRunner:
    """Plays rounds on a Dask cluster (fuzz.search.rounds.RoundRunner)."""

    def __init__(self, address: str, setup: RoundSetup, stop: StopFlag | None = None,
                 on_wait: Callable[[], None] | None = None, timeout: float = 20.0) -> None:
        try:
            dask = _dask()
        except ImportError:
            raise RoundError("--cluster needs Dask distributed: pip install "
                             "'gamecert[cluster]'") from None
        try:
            self.client = dask.Client(address, timeout=timeout, set_as_default=False)
        except OSError as exc:
            raise RoundError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        self.address = address
        self.token = uuid.uuid4().hex
        self.setup = replace(setup, storage=None)  # the workers' own cache folders
        self.stop_event = dask.Event(f"gamecert-stop-{self.token}", client=self.client)
        self.campaign_stop = stop
        self.on_wait = on_wait
        threads = sum(self.client.nthreads().values())
        if threads == 0:
            self.client.close()
            raise RoundError(f"the Dask cluster at {address} has no workers")
        # The setup (with the database snapshot, which grows with every campaign that
        # saves to the database) goes to the cluster once; each round's task names it.
        try:
            self.setup_ref = self.client.scatter(self.setup, broadcast=True, hash=False)
        except Exception as exc:  # a cluster that fails now: said as the cluster's, not ours
            self.client.close()
            raise RoundError(f"cannot send the campaign's setup to the Dask cluster at "
                             f"{address}: {type(exc).__name__}: {exc}") from None
        self.slots = threads
        self.prefetch = threads  # the scheduler holds them until a thread is free
        self.label = f"dask {address} ({threads} worker threads)"
        self.futures: dict[Any, int] = {}
        self.pending: list[Any] = []

    def submit(self, job: RoundJob) -> None:
        future = self.client.submit(play_task, self.setup_ref, self.token, job.round_no,
                                    sorted(job.muted), pure=False,
                                    key=f"gamecert-round-{self.token}-{job.round_no}-"
                                        f"{uuid.uuid4().hex[:8]}")
        self.futures[future] = job.round_no

    def next_outcome(self) -> RoundOutcome:
        last_wait = time.monotonic()
        while True:
            if self.campaign_stop is not None and self.campaign_stop.is_set():
                self.stop_event.set()
            done = [f for f in self.futures if f.done()]
            if not done:
                time.sleep(0.05)
                if self.on_wait is not None and time.monotonic() - last_wait >= POLL_SECONDS:
                    last_wait = time.monotonic()
                    self.on_wait()
                continue
            future = min(done, key=lambda f: self.futures[f])
            del self.futures[future]
            try:
                doc = future.result()
            except RoundError:
                raise
            except Exception as exc:
                raise RoundError(f"a cluster worker failed a round: "
                                 f"{type(exc).__name__}: {exc}") from None
            return RoundOutcome.from_portable(doc)

    def live(self) -> Coverage | None:
        return None

    def close(self) -> None:
        try:
            self.stop_event.set()
            for future in self.futures:
                future.cancel()
            self.setup_ref.release()
            self.client.run(close_task, self.token)
        except Exception:  # a cluster gone away: nothing of ours left to stop there
            pass
        finally:
            self.client.close()
