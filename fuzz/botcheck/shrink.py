"""Shrinking a failing game found by random play: the recorded picks (chance outcomes,
the other players' moves) with chunks taken out, replayed on a fresh bot each time, kept
when the same failure (rule and kind) still comes, after fewer picks. Where a shortened
script no longer fits the game, seeded picks carry on, so every attempt is one exact game
that its own record replays.

Time-outs are not shrunk: whether a reply is late depends on the machine as much as on the
game, so a shorter game proves nothing about them.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from gamecert.fuzz.botcheck.findings import FAIL, Finding, Findings, Timing
from gamecert.fuzz.botcheck.process import BotUnusable
from gamecert.fuzz.botcheck.runner import Codec, RunOptions, ScriptedChooser, play_game
from gamecert.reference_engine import reference_game

JSON = Any
TIMING_KINDS = frozenset({"late", "no-reply", "game-budget", "near-limit", "near-budget"})


def attempt(codec: Codec, options: RunOptions, script: list[JSON], start: JSON | None,
            key: tuple[str, str]) -> list[JSON] | None:
    """The picks before the failure `key` in the game `script` plays, or None."""
    chooser = ScriptedChooser(script, "shrink")
    state = None if start is None else reference_game(options.game).load(options.profile,
                                                                         start)
    timings: dict[int, Timing] = {}
    try:
        _, new = play_game(codec, options, 0, chooser, Findings(), timings,
                           stop_at_failure=True, start=state)
    except BotUnusable:
        return None
    fails = [f for f in new if f.severity == FAIL]
    if fails and (fails[0].rule, fails[0].kind) == key:
        return chooser.record[:fails[0].at_choice]
    return None


def shrink_finding(codec: Codec, options: RunOptions, f: Finding, budget: float,
                   deadline: float | None = None) -> bool:
    """Shorten `f`'s trace in place (within `budget` seconds, and no game of it goes on past
    `deadline`); True when it got shorter."""
    trace = f.trace
    if trace is None or f.kind in TIMING_KINDS or not trace.get("choices"):
        return False
    key = (f.rule, f.kind)
    best: list[JSON] = list(trace["choices"])
    start = trace.get("start")
    end = time.monotonic() + budget
    if deadline is not None:
        end = min(end, deadline)
    # no longer than it was, and no game past the allowance
    opts = replace(options, max_queries=f.query, progress=None, deadline=end)
    deadline = end
    parts = 2
    while best and time.monotonic() < deadline:
        size = max(1, len(best) // parts)
        better = None
        for i in range(0, len(best), size):
            if time.monotonic() >= deadline:
                break
            got = attempt(codec, opts, best[:i] + best[i + size:], start, key)
            if got is not None and len(got) < len(best):
                better = got
                break
        if better is not None:
            best, parts = better, max(2, parts - 1)
        elif size == 1:
            break
        else:
            parts *= 2
    if len(best) >= len(trace["choices"]):
        return False
    trace["choices"], trace["shrunk"] = best, True
    return True
