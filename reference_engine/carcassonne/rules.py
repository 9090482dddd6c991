"""Carcassonne rule predicates written with operators only.

The same functions run on Python ints (the engine) and on z3 terms (the z3 checks), so a
proof is about the engine's own code. The caller swaps `max2` (Python's `max`, or an
`If`-builder) and `ite` (a conditional expression, or `z3.If`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Max2 = Callable[[Any, Any], Any]
Ite = Callable[[Any, Any, Any], Any]


def py_ite(cond: Any, then: Any, other: Any) -> Any:
    return then if cond else other


def top_count(counts: Sequence[Any], max2: Max2 = max) -> Any:
    top = counts[0]
    for c in counts[1:]:
        top = max2(top, c)
    return top


def award(counts: Sequence[Any], points: Any, max2: Max2 = max, ite: Ite = py_ite) -> list[Any]:
    """CARC-SCORE-MAJORITY: each player's points from one scored feature.

    `counts[i]` is player i's meeples on the feature. Every player with the most meeples
    (and at least one) gets all `points`; everyone else gets 0.
    """
    top = top_count(counts, max2)
    return [ite(c >= top, ite(c > 0, points, 0), 0) for c in counts]


def completed_value(kind: str, tiles: Any, banners: Any, road_per_tile: Any,
                    town_per_tile: Any, town_per_banner: Any, monastery: Any) -> Any:
    """CARC-ROAD/TOWN/MONASTERY-COMPLETE: what a completed feature is worth."""
    if kind == "road":
        return tiles * road_per_tile
    if kind == "city":
        return tiles * town_per_tile + banners * town_per_banner
    return monastery


def incomplete_value(kind: str, tiles: Any, banners: Any, present: Any, road_per_tile: Any,
                     town_per_tile: Any, town_per_banner: Any, monastery_per_tile: Any) -> Any:
    """CARC-SCORE-INCOMPLETE: what a feature left open at the end is worth.

    `present` counts the monastery's tile and the tiles around it.
    """
    if kind == "road":
        return tiles * road_per_tile
    if kind == "city":
        return tiles * town_per_tile + banners * town_per_banner
    return present * monastery_per_tile


def is_winner(scores: Sequence[Any], i: int, max2: Max2 = max) -> Any:
    """CARC-WINNER: player i (0-based) has the most points (ties included)."""
    return scores[i] >= top_count(scores, max2)


# --- The Tower: counts moved by one step, on ints or z3 terms ---------------------------------
def floor_step(floors_left: Any, height: Any) -> tuple[Any, Any]:
    """CARC-TOWER-FLOORS: one floor leaves the player's supply and raises the tower by one."""
    return floors_left - 1, height + 1


def ransom_scores(scores: Sequence[Any], payer: int, captor: int, paid: Any,
                  got: Any) -> list[Any]:
    """CARC-TOWER-RANSOM: the scores after `payer` pays `paid` and `captor` gets `got`
    (0-based players)."""
    out = list(scores)
    out[payer] = out[payer] - paid
    out[captor] = out[captor] + got
    return out


def capture_tallies(supply: Sequence[Any], prisoners: Sequence[Sequence[Any]], captor: int,
                    owner: int) -> tuple[list[Any], list[list[Any]]]:
    """CARC-TOWER-CAPTURE: supplies and prisoners (rows: captor, columns: owner; 0-based)
    once `captor` has taken one of `owner`'s meeples off the board: one's own goes back to
    the supply, an opponent's into prison. The exchange is a separate step."""
    out_supply = list(supply)
    rows = [list(r) for r in prisoners]
    if owner == captor:
        out_supply[captor] = out_supply[captor] + 1
    else:
        rows[captor][owner] = rows[captor][owner] + 1
    return out_supply, rows
