"""The collector around a round (fuzz.search.collector): what lived before the round is
frozen out of the collector's walks while it plays, unfrozen after it (also when it
fails), and a full collection comes first every FULL_EVERY rounds (not at the first), so
cycles that became garbage meanwhile are freed."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

from gamecert.fuzz.search.collector import FULL_EVERY, round_collector


def _full_collections(round_no: int) -> int:
    """How many full collections a round (doing nothing) starts with."""
    full: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(seen)
    try:
        with round_collector(round_no):
            pass
    finally:
        gc.callbacks.remove(seen)
    return len(full)


def test_a_round_freezes_what_lives_and_unfreezes_it_after() -> None:
    with round_collector(1):
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    with pytest.raises(RuntimeError), round_collector(2):
        assert gc.get_freeze_count() > 0
        raise RuntimeError("a round that fails")
    assert gc.get_freeze_count() == 0


class Node:
    other: Any = None


def test_a_cycle_that_lived_before_a_round_is_freed_after_it() -> None:
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: garbage once the names are gone
    gone = weakref.ref(a)
    with round_collector(1):  # no full collection at round 1
        del a, b
        gc.collect()
        assert gone() is not None  # frozen while the round plays: not walked
    assert _full_collections(FULL_EVERY) == 1
    assert gone() is None  # the full collection freed it


def test_a_full_collection_comes_every_full_every_rounds() -> None:
    assert [_full_collections(n) for n in (0, 1, FULL_EVERY - 1, FULL_EVERY, FULL_EVERY + 1)] \
        == [0, 0, 0, 1, 0]  # none at the first round: a campaign's first finding comes fast
