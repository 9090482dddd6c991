"""Python's cyclic garbage collector while a campaign plays a round.

A round allocates fast (states, events, Hypothesis's choices), and each time the collector's
oldest generation is due it walks every object the process holds: the start positions,
the oracles' caches, what the rounds before kept. In a campaign that walk was about a
fifth of the CPU time (docs/speed.md, fourth pass). So a round starts by freezing what
lives already (`gc.freeze`: left out of collections, still freed by reference counting as
ever) and unfreezes it when it ends; every `FULL_EVERY` rounds a full collection first
frees the cycles that became garbage meanwhile, so what a long campaign holds stays
bounded. The benchmarks' lockstep figure runs with the collector off altogether
(benchmarks/speed/overhead.py).

This module only tunes the collector; it must not play or judge.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

FULL_EVERY = 16  # rounds between full collections


@contextmanager
def round_collector(round_no: int) -> Iterator[None]:
    """Around one round: a full collection first every FULL_EVERY rounds (from round
    FULL_EVERY on), what lives now frozen out of the collector's walks, and unfrozen at
    the end (whatever happens)."""
    if round_no and round_no % FULL_EVERY == 0:  # not at the first: a campaign's first
        gc.collect()  # finding comes in tenths of a second, and nothing of it is garbage yet
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
