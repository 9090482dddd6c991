"""The collector during a campaign (fuzz.search.rounds, its collector section): before each
round what lives is frozen out of the collector's walks; every FULL_EVERY rounds a process
plays, a full collection first frees the cycles that became garbage meanwhile (not before
the first); a campaign unfreezes all when it ends, also when it fails."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

from gamecert.fuzz.search import rounds as collector
from gamecert.fuzz.search.rounds import FULL_EVERY, before_round, campaign_collector


def _full_collections(rounds: int) -> int:
    """How many full collections `rounds` rounds (doing nothing) start with."""
    full: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(seen)
    try:
        for _ in range(rounds):
            before_round()
    finally:
        gc.callbacks.remove(seen)
    return len(full)


def test_rounds_freeze_what_lives_and_a_campaign_unfreezes_it_at_its_end() -> None:
    with campaign_collector():
        before_round()
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError), campaign_collector():
        before_round()
        raise RuntimeError("a campaign that fails")
    assert gc.get_freeze_count() == 0


class Node:
    other: Any = None


def test_a_cycle_frozen_by_a_round_is_freed_by_the_next_full_collection() -> None:
    collector._played = 0
    with campaign_collector():
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: garbage once the names are gone
        gone = weakref.ref(a)
        before_round()  # the first of FULL_EVERY: no full collection
        del a, b
        gc.collect()
        assert gone() is not None  # frozen: not walked
        assert _full_collections(FULL_EVERY - 1) == 0
        assert gone() is not None
        assert _full_collections(1) == 1  # the next round's full collection frees it
        assert gone() is None


def test_a_full_collection_comes_every_full_every_rounds_a_process_plays() -> None:
    collector._played = 0
    with campaign_collector():
        assert _full_collections(FULL_EVERY) == 0  # none before the first
        assert _full_collections(3 * FULL_EVERY) == 3
