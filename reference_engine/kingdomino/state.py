"""The state of a Kingdomino game: the grid size, the phases, a profile's configuration and
the immutable state record. The bottom layer of the engine: `engine.py` and `load.py` build on
it and it imports neither, so data flows one way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from gamecert.reference_engine.kingdomino.tiles import Tile, tiles_for
from gamecert.spec import Profile

Put = tuple[int, int, int]
Action = tuple[Any, ...]
N = 9  # KD-GRID: the grid is N x N
ORDER, DEAL, PLAY, OVER = "order", "deal", "play", "over"


@dataclass(frozen=True)
class KdConfig:
    """A profile's parameters and chosen variants, resolved once."""

    profile: Profile
    players: int
    line: int
    in_play: int
    turns: int
    kings: int
    extent: int
    tiles: dict[int, Tile]
    shuffled_start: bool  # KD-ORDER-FIRST = shuffled
    put_discards: bool  # KD-PUT-INVALID = discard
    largest_zone: bool  # KD-TIE-BREAK = largest-zone
    end_when_alone: bool  # KD-STOP = end-when-alone

    def __hash__(self) -> int:
        return id(self)


@cache
def _config(profile: Profile) -> KdConfig:
    p, v = profile.param, profile.variant
    n = p("KD-PLAYERS", "players")
    return KdConfig(
        profile, n, p("KD-TILES-IN-PLAY", f"line_{n}p"), p("KD-TILES-IN-PLAY", f"in_play_{n}p"),
        p("KD-GAME-LENGTH", f"turns_{n}p"), p("KD-KINGS", "kings_2p") if n == 2 else 1,
        p("KD-PLACE-EXTENT", "size"), tiles_for(v("KD-TILES")),
        v("KD-ORDER-FIRST") == "shuffled", v("KD-PUT-INVALID") == "discard",
        v("KD-TIE-BREAK") == "largest-zone", v("KD-STOP") == "end-when-alone")


class KdState(NamedTuple):
    cfg: KdConfig
    phase: str
    turn: int  # 1-based
    kings: tuple[int, ...]  # kings per player (KD-KINGS)
    bag: tuple[int, ...]  # tiles not yet drawn, ascending
    line: tuple[tuple[int, int], ...]  # the new line: (tile, owner or 0), ascending tile
    placing: tuple[tuple[int, int], ...]  # this turn's kings in order: (tile or 0, owner)
    nxt: int  # index into placing of the king to act
    grids: tuple[str, ...]
    stopped: tuple[bool, ...]
    discarded: tuple[int, ...]
    result: dict[str, Any] | None = None

    @property
    def profile(self) -> Profile:
        return self.cfg.profile
