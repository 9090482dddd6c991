"""Draws from Hypothesis strategies with a seeded `random.Random`, as `st.DataObject.draw`
does, at a small part of its cost: what a `run` (fuzz.search.play.runs) hands the game's draw
functions, so that a long run of the machine's rules costs Hypothesis one seed.

The strategies the game folders draw from most (integers in a range, `sampled_from`,
booleans, `just`/`none`, `one_of`, lists of those) are sampled here directly; any other
(a bot text's grammar) is drawn by Hypothesis itself, from a choice sequence seeded by the
same Random. Like Hypothesis's generation, a bounded integer or a pick is now and then a
boundary (the first or the last), where off-by-one departures live. This module draws
values only: it must not choose rules, drive engines or judge.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis.control import BuildContext
from hypothesis.internal.conjecture.data import ConjectureData
from hypothesis.strategies._internal.collections import ListStrategy
from hypothesis.strategies._internal.lazy import LazyStrategy
from hypothesis.strategies._internal.misc import BooleansStrategy
from hypothesis.strategies._internal.numbers import IntegersStrategy
from hypothesis.strategies._internal.strategies import (
    OneOfStrategy,
    SampledFromStrategy,
    SearchStrategy,
)

# how often a bounded integer or a pick is one of its two ends rather than uniform
BOUNDARY = 1 / 16
# a list's length beyond its least, at most (Hypothesis's lists average a few items)
LIST_EXTRA = 8


class SeededData:
    """`draw(strategy, label=None)` as `st.DataObject` has it, from `rng`. The same seed
    draws the same values from the same strategies, in any process."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def draw(self, strategy: SearchStrategy[Any], label: Any = None) -> Any:
        return sample(strategy, self.rng)


def sample(strategy: SearchStrategy[Any], rng: random.Random) -> Any:
    """One value of `strategy`, drawn with `rng`."""
    kind, a, b = _kind_of(strategy)
    if kind == INTEGERS:
        return _index(rng, a, b)
    if kind == PICK:
        return a[_index(rng, 0, len(a) - 1)]
    if kind == BOOLEAN:
        return rng.random() < 0.5
    if kind == ONE_OF:
        return sample(a[rng.randrange(len(a))], rng)
    if kind == LIST:
        low, high = a
        return [sample(b, rng) for _ in range(rng.randint(low, high))]
    return _by_hypothesis(strategy, rng)


INTEGERS, PICK, BOOLEAN, ONE_OF, LIST, OTHER = range(6)
Kind = tuple[int, Any, Any]
# what each strategy met is, by identity (a run draws from the same few thousands of times);
# the strategy is held with it, so that its identity is not reused while it is known
_kinds: dict[int, tuple[SearchStrategy[Any], Kind]] = {}
KINDS_KEPT = 4096  # strategies made afresh per draw (a pick among a position's probes) pass


def _kind_of(strategy: SearchStrategy[Any]) -> Kind:
    """How `sample` draws from `strategy`: its kind and what the kind needs."""
    known = _kinds.get(id(strategy))
    if known is not None and known[0] is strategy:
        return known[1]
    kind = _read_kind(strategy)
    if len(_kinds) >= KINDS_KEPT:
        _kinds.clear()
    _kinds[id(strategy)] = (strategy, kind)
    return kind


def _read_kind(strategy: SearchStrategy[Any]) -> Kind:
    s = _unwrapped(strategy)
    if isinstance(s, IntegersStrategy) and s.start is not None and s.end is not None:
        return INTEGERS, s.start, s.end
    if isinstance(s, SampledFromStrategy) and not s._transformations:
        return PICK, s.elements, None
    if isinstance(s, BooleansStrategy):
        return BOOLEAN, None, None
    if isinstance(s, OneOfStrategy):
        return ONE_OF, s.original_strategies, None
    if type(s) is ListStrategy and s.max_size != float("inf"):  # not text: a subclass
        low = s.min_size
        return LIST, (low, min(int(s.max_size), low + LIST_EXTRA)), s.element_strategy
    return OTHER, None, None


def _unwrapped(strategy: SearchStrategy[Any]) -> SearchStrategy[Any]:
    # st.integers(...) and the like are lazy wrappers around the strategy that draws
    # (its transformations, .map and .filter, applied); nothing else is unwrapped
    while isinstance(strategy, LazyStrategy):
        strategy = strategy.wrapped_strategy
    return strategy


def _index(rng: random.Random, low: int, high: int) -> int:
    if high > low and rng.random() < BOUNDARY:
        return low if rng.random() < 0.5 else high
    return rng.randint(low, high)


def _by_hypothesis(strategy: SearchStrategy[Any], rng: random.Random) -> Any:
    """A strategy sampled by Hypothesis's own generation, its choices from `rng`."""
    data = ConjectureData(random=random.Random(rng.getrandbits(64)))
    # a context of its own, inside a test or not: the draw's notes stay out of the
    # example's (the run's own choices are its seed)
    with BuildContext(data, wrapped_test=_by_hypothesis):
        try:
            return data.draw(strategy)
        finally:
            data.freeze()
