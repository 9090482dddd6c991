"""Python's cyclic garbage collector while a campaign plays its rounds.

A round allocates fast (states, events, Hypothesis's choices), and each time the collector's
oldest generation is due it walks every object the process holds: the start positions,
the oracles' caches, what the rounds before kept. In a campaign that walk was about a
fifth of the CPU time (docs/speed.md, fourth pass). So before each round what lives is
frozen out of the collector's walks (`gc.freeze`: such objects are still freed by
reference counting as ever); every `FULL_EVERY` rounds a process plays, everything is
unfrozen first and a full collection frees the cycles that became garbage meanwhile, so
what a long campaign holds stays bounded; and a campaign unfreezes all when it ends, so
the process that ran it (a test session, a benchmark) keeps no frozen heap. The
benchmarks' lockstep figure runs with the collector off altogether
(benchmarks/speed/overhead.py).

This module only tunes the collector; it must not play or judge.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

FULL_EVERY = 16  # rounds a process plays between full collections

_played = 0  # rounds this process has played since its last full collection


def before_round() -> None:
    """Freeze what lives now, after a full collection every FULL_EVERY rounds of this
    process (not before its first: a campaign's first finding comes in tenths of a second,
    and nothing of it is garbage yet). Rounds are counted per process, not by their number:
    a worker plays every other round, or any."""
    global _played
    if _played >= FULL_EVERY:
        gc.unfreeze()
        gc.collect()
        _played = 0
    _played += 1
    gc.freeze()


@contextmanager
def campaign_collector() -> Iterator[None]:
    """Around a campaign: what its rounds froze is unfrozen when it ends, whatever happens."""
    try:
        yield
    finally:
        gc.unfreeze()
