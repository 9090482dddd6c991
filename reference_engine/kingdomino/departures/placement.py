"""One-rule departures of Kingdomino's placement rules (KD-GRID, KD-TILES, KD-PLACE-*,
KD-DISCARD): each a small subclass of the reference engine that overrides one hook.

They are models for blame (`fuzz.step.blame`: which one-rule change gives the engine's state) and
the classes of the public mutants in examples/engines/kingdomino. This module must not hold
anything but such subclasses: no oracle, no fuzzing, no engine of its own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gamecert.reference_engine.kingdomino.engine import Kingdomino
from gamecert.reference_engine.kingdomino.rules import neighbours
from gamecert.reference_engine.kingdomino.state import KdConfig, KdState, N, Put
from gamecert.reference_engine.kingdomino.tiles import tiles_for
from gamecert.spec import Profile


class ExtentSixBySix(Kingdomino):
    """KD-PLACE-EXTENT: the territory may span 6 x 6 squares (the rule's parameter moved by
    one: blame has that model already as `parameter-size-6`; kept for the public mutant)."""

    def extent_ok(self, cfg: KdConfig, grid: str, cells: Any) -> bool:
        return super().extent_ok(replace(cfg, extent=cfg.extent + 1), grid, cells)


class NoExtentLimit(Kingdomino):
    """KD-PLACE-EXTENT: no limit on the territory's extent at all (the 9 x 9 grid is the only
    bound), as engines that forget the 5 x 5 rule play."""

    def extent_ok(self, cfg: KdConfig, grid: str, cells: Any) -> bool:
        return True


class NoConnection(Kingdomino):
    """KD-PLACE-CONNECT: a tile need not touch the castle or the same terrain."""

    def connects(self, grid: str, cell: int, terrain: str) -> bool:
        return True


class AnyNeighbourConnects(Kingdomino):
    """KD-PLACE-CONNECT: a tile connects when it touches any square of the territory, of
    whatever terrain (the kingdom's edge, not the same terrain)."""

    def connects(self, grid: str, cell: int, terrain: str) -> bool:
        return any(grid[2 * n] != "_" for n in neighbours(cell))


class OverlapAllowed(Kingdomino):
    """KD-PLACE-NO-OVERLAP: a PUT over squares of another tile (not the castle) is accepted:
    the check a PUT goes through forgets overlap (the engine's own listing and discard test
    still have it)."""

    def __init__(self) -> None:
        super().__init__()
        self._fast = True  # the listing and the discard test keep the reference's rules

    def placement_error(self, state: KdState, grid: str, tile: int, put: Put) -> str | None:
        x, y, r = put
        if type(r) is int and 0 <= r < 4:
            x2, y2 = self.second_cell(x, y, r)
            cells = list(grid)
            for cx, cy in ((x, y), (x2, y2)):
                i = 2 * (cy * N + cx)
                if 0 <= cx < N and 0 <= cy < N and cells[i] != "*":
                    cells[i:i + 2] = "_0"
            grid = "".join(cells)
        return super().placement_error(state, grid, tile, put)


class RotationMirrored(Kingdomino):
    """KD-PLACE-ROTATION: rotations 1 and 3 are swapped: 1 puts the second square above."""

    def second_cell(self, x: int, y: int, rotation: int) -> tuple[int, int]:
        return super().second_cell(x, y, {1: 3, 3: 1}.get(rotation, rotation))


class DiscardWhenFits(Kingdomino):
    """KD-DISCARD: a tile may be discarded even when it fits somewhere."""

    def can_discard(self, state: KdState, grid: str, tile: int) -> bool:
        return True


class NeverDiscard(Kingdomino):
    """KD-DISCARD: a tile is never discarded, even when it fits nowhere (the engine has no
    discard: the king cannot play)."""

    def can_discard(self, state: KdState, grid: str, tile: int) -> bool:
        return False


class CastleOffCentre(Kingdomino):
    """KD-GRID: each castle stands on (3, 4), not on the centre (4, 4)."""

    def initial(self, profile: Profile, seed: int | None = None) -> KdState:
        state = super().initial(profile, seed)
        grid = "_0" * 39 + "*0" + "_0" * 41
        return state._replace(grids=(grid,) * len(state.grids))


class OtherTileList(Kingdomino):
    """KD-TILES: plays the second public tile list (tiles 13 and 37) whatever the profile
    says (a reading of the rule: blame has it as `reading-fiddleatwork`; kept for the public
    mutant)."""

    def config(self, profile: Profile) -> KdConfig:
        return replace(super().config(profile), tiles=tiles_for("fiddleatwork"))
