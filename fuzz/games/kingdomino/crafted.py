"""Kingdomino's crafted positions: z3's near-full kingdoms, exactly one spot left for the
tile (KD-PLACE-EXTENT, KD-DISCARD). Builds states only.
"""

from __future__ import annotations

from typing import Any

from gamecert.spec import Profile

JSON = Any


def near_full_starts(profile: Profile) -> list[JSON]:
    """z3's near-full kingdoms (exactly one spot left for the tile), as start states."""
    try:
        from gamecert.oracles.kingdomino.z3_checks import near_full_states
    except ImportError:  # pragma: no cover - z3 is a dependency; kept for clarity
        return []
    return near_full_states(profile)
