"""Progress of a campaign: a live display on a terminal, plain lines in a log.

On a terminal (and not in CI, not with --quiet) a `rich` live panel shows the elapsed and
remaining budget, rounds, steps per second, findings so far (with the rules they are
charged to) and the rules not yet exercised. Elsewhere a plain line goes out every few
seconds, so a long run always shows signs of life. This module only displays what the
campaign hands it; it must not touch the campaign.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import IO

from rich.console import Console, Group
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.text import Text

from gamecert.fuzz.search.campaign import Progress


def _line(p: Progress) -> str:
    left = f", {len(p.unexercised)} rules not yet exercised" if p.unexercised else ""
    budget = (f" of {p.budget:g} s ({max(0.0, p.budget - p.elapsed):.0f} s left)"
              if p.budget else "")
    found = f" ({_rules(p.found)})" if p.found else ""
    return (f"{p.elapsed:.1f} s{budget}; rounds {p.rounds}, examples {p.examples}, "
            f"steps {p.steps} ({p.steps_per_s:.0f}/s), findings {p.findings}{found}{left}")


def _rules(found: tuple[str, ...], most: int = 6) -> str:
    """The rules the findings so far are charged to, each once, with how many under it."""
    counts: dict[str, int] = {}
    for rule in found:
        counts[rule] = counts.get(rule, 0) + 1
    named = [rule if n == 1 else f"{rule} x{n}" for rule, n in counts.items()]
    return ", ".join(named[:most]) + (" ..." if len(named) > most else "")


class _Ticker:
    """Asks the campaign for a fresh snapshot now and then, from a thread of its own: a
    step that waits on a slow engine still shows the run is alive."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.thread: threading.Thread | None = None

    def start(self, every: float, snapshot: Callable[[], Progress],
              show: Callable[[Progress], None]) -> None:
        def loop() -> None:
            while not self.stop.wait(every):
                show(snapshot())

        self.thread = threading.Thread(target=loop, name="gamecert-progress", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=2)


class PlainProgress:
    """A plain line every `every` seconds (and the last state on close)."""

    def __init__(self, stream: IO[str] | None = None, every: float = 5.0) -> None:
        self.stream = stream or sys.stderr
        self.every = every
        self.last = time.monotonic()
        self.latest: Progress | None = None
        self.ticker = _Ticker()

    def attach(self, snapshot: Callable[[], Progress]) -> None:
        """Keep showing signs of life while the campaign waits on its engine."""
        self.ticker.start(self.every, snapshot, self)

    def __call__(self, p: Progress) -> None:
        self.latest = p
        if time.monotonic() - self.last >= self.every:
            self.last = time.monotonic()
            self.stream.write(f"progress: {_line(p)}\n")
            self.stream.flush()

    def close(self) -> None:
        self.ticker.close()
        if self.latest is not None:
            self.stream.write(f"progress: {_line(self.latest)} (done)\n")
            self.stream.flush()


class LiveProgress:
    """A rich live panel, redrawn as the campaign reports."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.console = Console(file=stream or sys.stderr)
        self.live = Live(Text("starting..."), console=self.console, refresh_per_second=4,
                         transient=False)
        self.live.start()
        self.ticker = _Ticker()

    def attach(self, snapshot: Callable[[], Progress]) -> None:
        """Keep the panel's clock moving while the campaign waits on its engine."""
        self.ticker.start(0.5, snapshot, self)

    def __call__(self, p: Progress) -> None:
        parts: list[Text | ProgressBar] = []
        if p.budget:
            parts.append(ProgressBar(total=p.budget, completed=min(p.elapsed, p.budget),
                                     width=40))
        parts.append(Text(_line(p)))
        if p.unexercised:
            shown = ", ".join(p.unexercised[:6]) + (" ..." if len(p.unexercised) > 6 else "")
            parts.append(Text(f"not yet exercised: {shown}", style="yellow"))
        if p.findings:
            rules = f": {_rules(p.found)}" if p.found else ""
            parts.append(Text(f"findings so far: {p.findings}{rules}", style="bold red"))
        self.live.update(Group(*parts))

    def close(self) -> None:
        self.ticker.close()
        self.live.stop()


def progress_display(quiet: bool, stream: IO[str] | None = None) -> PlainProgress | LiveProgress:
    """The live panel on an interactive terminal; plain lines in CI, in logs, or quiet."""
    out = stream or sys.stderr
    if quiet or os.environ.get("CI") or not out.isatty():
        return PlainProgress(out)
    return LiveProgress(out)
