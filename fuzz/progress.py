"""Progress of a campaign: a live display on a terminal, plain lines in a log.

On a terminal (and not in CI, not with --quiet) a `rich` live panel shows the elapsed and
remaining budget, rounds, steps per second, findings so far and the rules not yet
exercised. Elsewhere a plain line goes out every few seconds, so a long run always shows
signs of life. This module only displays what the campaign hands it; it must not touch
the campaign.
"""

from __future__ import annotations

import os
import sys
import time
from typing import IO

from rich.console import Console, Group
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.text import Text

from gamecert.fuzz.campaign import Progress


def _line(p: Progress) -> str:
    left = f", {len(p.unexercised)} rules not yet exercised" if p.unexercised else ""
    budget = (f" of {p.budget:g} s ({max(0.0, p.budget - p.elapsed):.0f} s left)"
              if p.budget else "")
    return (f"{p.elapsed:.1f} s{budget}; rounds {p.rounds}, examples {p.examples}, "
            f"steps {p.steps} ({p.steps_per_s:.0f}/s), findings {p.findings}{left}")


class PlainProgress:
    """A plain line every `every` seconds (and the last state on close)."""

    def __init__(self, stream: IO[str] | None = None, every: float = 5.0) -> None:
        self.stream = stream or sys.stderr
        self.every = every
        self.last = time.monotonic()
        self.latest: Progress | None = None

    def __call__(self, p: Progress) -> None:
        self.latest = p
        if time.monotonic() - self.last >= self.every:
            self.last = time.monotonic()
            self.stream.write(f"progress: {_line(p)}\n")
            self.stream.flush()

    def close(self) -> None:
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
            parts.append(Text(f"findings so far: {p.findings}", style="bold red"))
        self.live.update(Group(*parts))

    def close(self) -> None:
        self.live.stop()


def progress_display(quiet: bool, stream: IO[str] | None = None) -> PlainProgress | LiveProgress:
    """The live panel on an interactive terminal; plain lines in CI, in logs, or quiet."""
    out = stream or sys.stderr
    if quiet or os.environ.get("CI") or not out.isatty():
        return PlainProgress(out)
    return LiveProgress(out)
