"""`gamecert prove GAME`: z3 proofs about an engine's own rule code, then the z3 boundary
positions played on the engine beside the reference.

The symbolic part needs the engine's code in this process; the boundary part works on any
engine, subprocess ones included.
"""

from __future__ import annotations

from collections.abc import Callable

from gamecert.fuzz.engines.engine import Engine
from gamecert.spec import Profile

Prover = Callable[[Engine, Profile], tuple[bool, list[str]]]


def prover_for(game: str) -> Prover | None:
    """A game's prover: its fuzzing plugin's `prove`, when it has one."""
    from gamecert.fuzz.games import plugin_for

    return getattr(plugin_for(game), "prove", None)
