"""Flit rule predicates written with operators only.

The same function runs on Python ints (the engine) and on z3 terms (`gamecert prove flit`),
so the proof is about the engine's own code, not a copy of it. `max2` is the only thing the
caller swaps: Python's `max` and `any` for ints, `If`- and `Or`-builders for z3.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Max2 = Callable[[Any, Any], Any]
AnyOf = Callable[[list[Any]], Any]


def cannot_be_caught(d: Any, a: Any, b: Any, c: Any, n: Any, e: Any, p_offset: Any,
                     max2: Max2 = max) -> Any:
    """FLIT-END-CATCHUP: D > max(A + P, B + P, C + P) with P = N + E - p_offset."""
    p = n + e - p_offset
    m = max2(max2(a + p, b + p), c + p)
    return d > m
