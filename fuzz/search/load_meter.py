"""How much a busy machine slowed a campaign down: the time its processes spent ready to
run but waiting for a CPU.

Linux keeps, for every thread, the time it ran and the time it waited on a run queue
(`/proc/PID/task/TID/schedstat`: on the CPU, waiting, in nanoseconds). While the rounds are
played, `LoadMeter` samples both for this process and every process under it (the engines,
the worker processes and their engines), twice a second, and keeps each process's last
figures, so one that ended between samples still counts up to its last sample. A campaign's
rounds are CPU work handed back and forth between the harness and its engine, so the share
of waiting in (running + waiting) is the share of the rounds' time the machine's other
work took: at 0 the rounds ran as fast as the engine allows, at 0.75 four times slower.

What is measured is said, never corrected for: the budget stays a wall-clock promise, and
the certificate says how much of it the machine's load took (fuzz.reports.certificate).
Where there is no `/proc/PID/schedstat` (another system, a kernel without scheduler
statistics) nothing is measured and nothing is said.

This module reads /proc; it must not start or stop anything.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

from gamecert.fuzz.engines.subprocess_engine import descendants

SAMPLE_SECONDS = 0.5
# below this share of waiting, a run is as good as on an idle machine: not worth a word
NOTABLE_SHARE = 0.2


@dataclass(frozen=True)
class Load:
    """What the campaign's processes did while the rounds were played, in seconds."""

    cpu_s: float  # running on a CPU
    wait_s: float  # ready to run, waiting for a CPU

    @property
    def share(self) -> float:
        """The share of the rounds' time lost to waiting for a CPU (0 to 1)."""
        total = self.cpu_s + self.wait_s
        return self.wait_s / total if total > 0 else 0.0

    @property
    def slowdown(self) -> float:
        """How many times slower than the engine allows the rounds ran (1 on an idle
        machine)."""
        return 1.0 / (1.0 - self.share) if self.share < 1 else float("inf")

    @property
    def notable(self) -> bool:
        return self.share >= NOTABLE_SHARE

    def as_json(self) -> dict[str, float]:
        return {"cpu_s": round(self.cpu_s, 3), "wait_s": round(self.wait_s, 3),
                "share": round(self.share, 4), "slowdown": round(self.slowdown, 3)}


def _start_time(pid: int) -> int | None:
    """The process's start time (clock ticks since boot): with its pid, one process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        return int(stat[stat.rfind(b")") + 2:].split()[19])
    except (OSError, ValueError, IndexError):
        return None


def _schedstat(pid: int) -> tuple[int, int] | None:
    """(ns on a CPU, ns waiting for one), summed over the process's threads."""
    cpu = wait = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as f:
                fields = f.read().split()
            cpu += int(fields[0])
            wait += int(fields[1])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return cpu, wait


class LoadMeter:
    """Samples the CPU and run-queue time of this process and its descendants, from
    `start()` to `stop()`, on a thread of its own."""

    def __init__(self, root: int | None = None, every: float = SAMPLE_SECONDS) -> None:
        self.root = os.getpid() if root is None else root
        self.every = every
        # (pid, start time) -> the figures at the first and the last sample it was seen
        self.first: dict[tuple[int, int], tuple[int, int]] = {}
        self.last: dict[tuple[int, int], tuple[int, int]] = {}
        self.before: set[tuple[int, int]] = set()
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.thread: threading.Thread | None = None
        self.available = _schedstat(self.root) is not None

    def sample(self) -> None:
        with self.lock:
            for pid in [self.root, *descendants(self.root)]:
                start, stats = _start_time(pid), _schedstat(pid)
                if start is None or stats is None:
                    continue
                key = (pid, start)
                self.first.setdefault(key, stats)
                self.last[key] = stats

    def start(self) -> LoadMeter:
        if not self.available:
            return self
        self.sample()
        # what existed before the campaign counts from now, not from its own start; what
        # starts later counts whole (its first sample is taken as zero)
        with self.lock:
            self.before = set(self.first)

        def loop() -> None:
            while not self.done.wait(self.every):
                self.sample()

        self.thread = threading.Thread(target=loop, name="gamecert-load-meter", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> Load | None:
        """The figures since `start()` (None where they cannot be measured)."""
        if not self.available:
            return None
        self.done.set()
        if self.thread is not None:
            self.thread.join(timeout=2)
        self.sample()
        cpu = wait = 0
        with self.lock:
            for key, (c1, w1) in self.last.items():
                c0, w0 = self.first[key] if key in self.before else (0, 0)
                cpu += c1 - c0
                wait += w1 - w0
        return Load(cpu / 1e9, wait / 1e9)
