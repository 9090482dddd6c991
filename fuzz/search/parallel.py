"""Local worker processes that play a campaign's rounds (`certify --jobs N`).

Each worker is a process of its own (started with `spawn`: nothing of the parent's threads
or open engines leaks into it) with its own engine, opened fresh from the campaign's recipe
and taken through the same handshake. Workers take rounds from one queue, so a slow round
never holds the others up, and send back each outcome as plain data; `fuzz.search.rounds.in_order`
puts them back in round order.

Nothing outlives the campaign: workers ignore Ctrl-C (the campaign's handler sets a shared
stop flag and their running examples end as at the deadline), `close()` asks them to stop,
then terminates and finally kills them, and every engine a worker started is found by the
tag it carries in its environment and killed, even after a worker was killed outright.

This module starts and stops workers; it must not judge findings or write reports.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import queue
import signal
import sys
import traceback
import uuid
import weakref
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

from gamecert.fuzz.engines.subprocess_engine import close_all, kill_tagged
from gamecert.fuzz.search.rounds import (
    RoundError,
    RoundJob,
    RoundOutcome,
    RoundSetup,
    StopFlag,
    hypothesis_home,
    open_player,
)
from gamecert.fuzz.step.lockstep import Coverage

WORKER_TAG = "GAMECERT_WORKER_TOKEN"  # in every worker's environment, so its engines' too
POLL_SECONDS = 0.25
_RUNNING: weakref.WeakSet[ProcessRunner] = weakref.WeakSet()


def stop_all_workers() -> None:
    """Stopped from outside (SIGTERM): kill every worker and its engines now."""
    for runner in list(_RUNNING):
        runner.kill()


def _die_with_parent() -> None:
    """Linux: the kernel sends this worker SIGTERM when the campaign dies, even by SIGKILL
    (the worker then closes its engine). Elsewhere the worker notices its parent is gone."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _worker(setup: RoundSetup, tasks: Any, results: Any, stop: Any, tag: str,
            name: str) -> None:
    """A worker's life (`_work`), then its end. Once its engine is closed and what it sent
    is in the pipe, nothing is left to do: the worker ends at once (`os._exit`) instead of
    taking its interpreter apart object by object, which the campaign would wait for (about
    half a second a worker, once its caches are full)."""
    try:
        _work(setup, tasks, results, stop, tag, name)
    finally:
        try:
            results.close()
            results.join_thread()  # returns at once when `cancel_join_thread` was called
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
        finally:
            os._exit(0)


def _work(setup: RoundSetup, tasks: Any, results: Any, stop: Any, tag: str,
          name: str) -> None:
    """Open an engine, play rounds until told to stop, close it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the campaign decides what Ctrl-C means
    os.environ[WORKER_TAG] = tag  # inherited by the engines it starts

    def on_term(signum: int, frame: object) -> None:
        # once: a second SIGTERM (the campaign's, then the parent-death signal) must not
        # interrupt the engines' closing
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        # Nobody will read what is still unsent: at exit, do not wait for the queue's
        # feeder thread (it would block for ever on a full pipe whose reader is dead, since
        # every worker holds the queue's read end too).
        results.cancel_join_thread()
        # Close the engines here and end at once. An exception raised from a signal handler
        # lands wherever the worker was, a garbage collector callback included, where
        # Python prints it as "Exception ignored ... Traceback" on the user's terminal.
        close_all()
        os._exit(0)

    signal.signal(signal.SIGTERM, on_term)
    _die_with_parent()
    parent = os.getppid()
    if parent == 1:  # the campaign died before we got here
        return
    player = None
    try:
        from pathlib import Path

        with hypothesis_home(Path(setup.storage)) if setup.storage else \
                contextlib.nullcontext():
            player = open_player(setup, stop, worker=name)
            while True:
                try:
                    job = tasks.get(timeout=1.0)
                except queue.Empty:
                    if os.getppid() != parent:  # the campaign is gone: so are we
                        results.cancel_join_thread()  # and nobody reads what is unsent
                        return
                    continue
                if job is None:
                    return
                outcome = player.play(job)
                results.put(("ok", outcome.portable()))
    except RoundError as exc:
        results.put(("error", str(exc)))
    except Exception as exc:  # a bug of ours: the campaign must say so, not hang
        results.put(("error", f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}"))
    finally:
        if player is not None:
            player.engine.close()


class ProcessRunner:
    """Plays rounds in `jobs` local worker processes (fuzz.search.rounds.RoundRunner)."""

    def __init__(self, setup: RoundSetup, jobs: int, stop: StopFlag | None = None,
                 on_wait: Callable[[], None] | None = None) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.slots = jobs
        self.prefetch = jobs  # one round waiting in the queue for each worker
        self.label = f"{jobs} local processes"
        self.campaign_stop = stop
        self.on_wait = on_wait
        self.tag = uuid.uuid4().hex
        self.tasks: Any = ctx.Queue()
        self.results: Any = ctx.Queue()
        self.stop = ctx.Event()
        self.workers: list[BaseProcess] = []
        # One hash seed for every worker: where a round reports the first of a set (of bad
        # moves, say), which one it is follows the process's hash seed. Workers take this
        # process's PYTHONHASHSEED when it has one, else 0, so --jobs N reports the same
        # whatever N, and the same as --jobs 1 run with that PYTHONHASHSEED.
        hash_seed = os.environ.get("PYTHONHASHSEED")
        os.environ["PYTHONHASHSEED"] = hash_seed or "0"
        # Known to `stop_all_workers` before the first worker starts, and each worker tagged
        # from its first instant (the tag is in the environment it is spawned with): a
        # SIGTERM while workers are still starting kills them too, silently.
        _RUNNING.add(self)
        os.environ[WORKER_TAG] = self.tag
        try:
            self._start(ctx, setup, jobs)
        finally:
            del os.environ[WORKER_TAG]  # engines this process opens later are not workers'
            if hash_seed is None:
                del os.environ["PYTHONHASHSEED"]

    def _start(self, ctx: Any, setup: RoundSetup, jobs: int) -> None:
        # Workers get plain data only (the setup, the jobs), nothing defined in the main
        # module: so `spawn` need not run the main module again in each of them (cheaper
        # start-up, and a script without an `if __name__ == "__main__":` guard works).
        main = sys.modules.get("__main__")
        saved = {k: getattr(main, k) for k in ("__spec__", "__file__") if hasattr(main, k)}
        try:
            if main is not None:
                main.__spec__ = None
                if hasattr(main, "__file__"):
                    del main.__file__
            self._spawn(ctx, setup, jobs)
        finally:
            for k, v in saved.items():
                setattr(main, k, v)

    def _spawn(self, ctx: Any, setup: RoundSetup, jobs: int) -> None:
        for i in range(jobs):
            proc = ctx.Process(target=_worker, name=f"gamecert-worker-{i}",
                               args=(setup, self.tasks, self.results, self.stop, self.tag,
                                     f"local-{i}"),
                               daemon=True)
            proc.start()
            self.workers.append(proc)

    def submit(self, job: RoundJob) -> None:
        self.tasks.put(job)

    def next_outcome(self) -> RoundOutcome:
        while True:
            if self.campaign_stop is not None and self.campaign_stop.is_set():
                self.stop.set()  # running examples end as at the deadline
            try:
                kind, payload = self.results.get(timeout=POLL_SECONDS)
            except queue.Empty:
                if self.on_wait is not None:
                    self.on_wait()
                dead = [w for w in self.workers if not w.is_alive()]
                if dead and self.results.empty():
                    raise RoundError(f"worker {dead[0].name} died (exit code "
                                     f"{dead[0].exitcode}) without an outcome") from None
                continue
            if kind == "error":
                raise RoundError(f"a worker failed: {payload}")
            return RoundOutcome.from_portable(payload)

    def live(self) -> Coverage | None:
        return None  # workers report per round

    def kill(self) -> None:
        """At once: every worker, then every engine they started."""
        for proc in self.workers:
            with contextlib.suppress(Exception):
                proc.kill()
        kill_tagged(self.tag, WORKER_TAG)

    def close(self) -> None:
        """Stop every worker and every engine they started; wait for none of them long."""
        self.stop.set()
        for _ in self.workers:
            with contextlib.suppress(Exception):
                self.tasks.put(None)
        for proc in self.workers:
            proc.join(timeout=3)
        for proc in self.workers:
            if proc.is_alive():
                proc.terminate()  # SIGTERM: the worker closes its engine on the way out
        for proc in self.workers:
            proc.join(timeout=2)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=2)
        kill_tagged(self.tag, WORKER_TAG)  # engines of a worker that was killed outright
        _RUNNING.discard(self)
        for q in (self.tasks, self.results):
            q.close()
            q.cancel_join_thread()
