"""The tiles as a competitor knows them from the rules: each tile's edges (top, right,
bottom, left, unrotated: F field, R road, C city, W river) and its features, each a kind (R
road, C city, M monastery) with the sides it reaches (T R B L) and a + for a banner.
`rotation` turns a tile clockwise in quarter turns."""

from __future__ import annotations

from dataclasses import dataclass

SIDES = "TRBL"
SIDE_NAMES = ("top_edge", "right_edge", "bottom_edge", "left_edge")
MONASTERY = "MONASTARY"  # spelled as the protocol spells it
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))  # top, right, bottom, left: y grows downward

_TABLE = {
    "A": ("FFRF", "M R:B"), "B": ("FFFF", "M"), "C": ("CCCC", "C+:TRBL"),
    "D": ("RCRF", "R:TB C:R"), "E": ("CFFF", "C:T"), "F": ("FCFC", "C+:RL"),
    "G": ("CFCF", "C:TB"), "H": ("FCFC", "C:R C:L"), "I": ("FCCF", "C:R C:B"),
    "J": ("CRRF", "C:T R:RB"), "K": ("RCFR", "C:R R:TL"), "L": ("RCRR", "C:R R:T R:B R:L"),
    "M": ("CFFC", "C+:TL"), "N": ("CFFC", "C:TL"), "O": ("CRRC", "C+:TL R:RB"),
    "P": ("CRRC", "C:TL R:RB"), "Q": ("CCFC", "C+:TRL"), "R": ("CCFC", "C:TRL"),
    "S": ("CCRC", "C+:TRL R:B"), "T": ("CCRC", "C:TRL R:B"), "U": ("RFRF", "R:TB"),
    "V": ("FFRR", "R:BL"), "W": ("FRRR", "R:R R:B R:L"), "X": ("RRRR", "R:T R:R R:B R:L"),
    "RS": ("WFFF", ""), "R1": ("WCWR", "C:R R:L"), "R2": ("WFWF", ""),
    "R3": ("RWWR", "R:TL"), "R4": ("CWCW", "C:T C:B"), "R5": ("WFFW", ""),
    "R6": ("WRWR", "R:RL"), "R7": ("CCWW", "C:TR"), "R8": ("FWRW", "M R:B"),
    "R9": ("WWFF", ""), "RE": ("FFWF", ""),
}


@dataclass(frozen=True)
class Feature:
    kind: str  # "R", "C" or "M"
    sides: tuple[int, ...]  # 0 top .. 3 left, as placed
    banner: bool = False


def edges(tile: str, rotation: int) -> str:
    """The tile's four edges as placed (top, right, bottom, left)."""
    e = _TABLE[tile][0]
    return "".join(e[(s - rotation) % 4] for s in range(4))


def features(tile: str, rotation: int) -> list[Feature]:
    """The tile's roads, cities and monastery as placed."""
    out = []
    for word in _TABLE[tile][1].split():
        head, _, sides = word.partition(":")
        out.append(Feature(head[0], tuple(sorted((SIDES.index(c) + rotation) % 4
                                                 for c in sides)), head.endswith("+")))
    return out


def known(tile: str) -> bool:
    return tile in _TABLE


def river_sides(tile: str, rotation: int) -> list[int]:
    return [s for s, k in enumerate(edges(tile, rotation)) if k == "W"]
