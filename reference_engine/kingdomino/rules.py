"""Coders of the Realm's rule decisions, one small method each: the kings and the line, the
first order, a placement's cells, extent and connection, the zones and the score, the
tie-break, the last turn, discards and picks, and the placements a tile has.

`KingdomRules` is the half of the reference engine (`engine.Kingdomino`) that a mutant
overrides to change one rule; the other half (`engine.py`) plays the game with them: the
contract's steps, the chance steps, canonical JSON. While a subclass keeps the placement and
zone hooks, the listings and zones come from bitboards (`bitboard.py`, `_fast`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import permutations
from typing import Any

from gamecert.reference_engine.kingdomino.bitboard import (
    kingdom,
    known,
    placement_masks,
    puts_of,
    remember,
    zones_of,
)
from gamecert.reference_engine.kingdomino.state import KdConfig as KdConfig
from gamecert.reference_engine.kingdomino.state import KdState as KdState
from gamecert.reference_engine.kingdomino.state import N as N
from gamecert.reference_engine.kingdomino.state import Put as Put
from gamecert.reference_engine.kingdomino.state import _config
from gamecert.reference_engine.kingdomino.tiles import Tile
from gamecert.spec import Profile


class KingdomRules:
    """The rule hooks of the Kingdomino reference engine (see the module docstring)."""

    # set by `Kingdomino.__init__`: whether the bitboard paths stand for the hooks
    _fast: bool
    _fast_zones: bool

    def config(self, profile: Profile) -> KdConfig:
        return _config(profile)

    # --- rule hooks ----------------------------------------------------------------------
    def kings_per_player(self, cfg: KdConfig) -> int:
        """KD-KINGS."""
        return cfg.kings

    def line_size(self, cfg: KdConfig) -> int:
        """KD-TILES-IN-PLAY: tiles in each new line."""
        return cfg.line

    def first_orders(self, state: KdState) -> list[tuple[int, ...]]:
        """KD-ORDER-FIRST: the possible first-turn orders of the kings (equally likely)."""
        seats = tuple(p for _ in range(max(state.kings, default=1))
                      for p in range(1, len(state.kings) + 1) if state.kings[p - 1] > _)
        if not state.cfg.shuffled_start:
            return [seats]
        return sorted(set(permutations(seats)))

    def turn_order(self, line: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """KD-ORDER: next turn's kings, by ascending id of the tile each picked."""
        return sorted((t, o) for t, o in line if o)

    def second_cell(self, x: int, y: int, rotation: int) -> tuple[int, int]:
        """KD-PLACE-ROTATION."""
        dx, dy = OFFSETS[rotation]
        return x + dx, y + dy

    def extent_ok(self, cfg: KdConfig, grid: str, cells: Sequence[tuple[int, int]]) -> bool:
        """KD-PLACE-EXTENT: the territory with `cells` added spans at most `extent` squares."""
        x0, x1, y0, y1 = _bbox(grid)
        for x, y in cells:
            x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
        return x1 - x0 < cfg.extent and y1 - y0 < cfg.extent

    def connects(self, grid: str, cell: int, terrain: str) -> bool:
        """KD-PLACE-CONNECT: a square of `terrain` on `cell` touches the castle or the same
        terrain."""
        return any(grid[2 * n] in ("*", terrain) for n in neighbours(cell))

    def zone_neighbours(self, i: int) -> tuple[int, ...]:
        """KD-SCORE-ZONES: cells of one zone touch orthogonally."""
        return neighbours(i)

    def zones(self, grid: str) -> list[tuple[str, int, int]]:
        """KD-SCORE-ZONES: every zone as (terrain, squares, crowns), by first cell."""
        if self._fast_zones:
            found = zones_of(kingdom(grid))
            if found is not None:
                return found
        seen = [False] * (N * N)
        out = []
        for i in range(N * N):
            t = grid[2 * i]
            if seen[i] or t in "_*":
                continue
            seen[i] = True
            stack, size, crowns = [i], 0, 0
            while stack:
                c = stack.pop()
                size += 1
                crowns += ord(grid[2 * c + 1]) - 48
                for n in self.zone_neighbours(c):
                    if not seen[n] and grid[2 * n] == t:
                        seen[n] = True
                        stack.append(n)
            out.append((t, size, crowns))
        return out

    def score_grid(self, grid: str) -> int:
        """KD-SCORE-ZONES: the sum of size x crowns over the zones."""
        return sum(size * crowns for _, size, crowns in self.zones(grid))

    def territory(self, cfg: KdConfig, grid: str) -> int:
        """KD-TIE-BREAK: the 'largest territory' measure of the chosen reading."""
        if cfg.largest_zone:
            return max((size for _, size, _ in self.zones(grid)), default=0)
        k = kingdom(grid)
        if k.plain:
            return (k.occupied & ~k.terrain["*"]).bit_count()
        return sum(1 for i in range(N * N) if grid[2 * i] not in "_*")

    def crowns(self, grid: str) -> int:
        k = kingdom(grid)
        if k.plain:
            c1, c2, c3 = k.crowns
            return c1.bit_count() + 2 * c2.bit_count() + 3 * c3.bit_count()
        return sum(ord(grid[2 * i + 1]) - 48 for i in range(N * N))

    def tie_break(self, scores: list[int], territory: list[int], crowns: list[int]) -> list[int]:
        """KD-TIE-BREAK: one point to the largest territory among tied players, then one to
        the most crowns among players still tied."""
        final = list(scores)
        for measure in (territory, crowns):
            groups: dict[int, list[int]] = {}
            for i, s in enumerate(final):
                groups.setdefault(s, []).append(i)
            for members in groups.values():
                if len(members) > 1:
                    best = max(measure[i] for i in members)
                    for i in members:
                        if measure[i] == best:
                            final[i] += 1
        return final

    def last_turn(self, state: KdState) -> bool:
        """KD-GAME-LENGTH."""
        return state.turn >= state.cfg.turns

    def can_discard(self, state: KdState, grid: str, tile: int) -> bool:
        """KD-DISCARD: a tile is discarded only when it fits nowhere."""
        return not self.fits_somewhere(state, grid, tile)

    def pick_error(self, state: KdState, pick: Any) -> str | None:
        """KD-PICK and KD-LAST-TURN-NO-PICK: why `pick` is not allowed now, or None."""
        if self.last_turn(state):
            return None if pick is None else "no PICK on the last turn"
        if pick is None:
            return "a PICK is due every turn but the last"
        for t, o in state.line:
            if t == pick:
                return None if o == 0 else f"tile {pick} is already picked"
        return f"tile {pick!r} is not in the new line"

    # --- placement -----------------------------------------------------------------------
    def placement_error(self, state: KdState, grid: str, tile: int, put: Put) -> str | None:
        """Why PUT x y rotation does not place `tile`, or None (KD-GRID, KD-PLACE-*)."""
        x, y, r = put
        if not (type(r) is int and 0 <= r < 4):
            return f"rotation {r!r} is not 0-3"
        x2, y2 = self.second_cell(x, y, r)
        if not (0 <= x < N and 0 <= y < N and 0 <= x2 < N and 0 <= y2 < N):
            return f"({x}, {y}) rotation {r} leaves the {N} x {N} grid"
        i, j = y * N + x, y2 * N + x2
        if grid[2 * i] != "_" or grid[2 * j] != "_":
            return f"({x}, {y}) rotation {r} overlaps the castle or a tile"
        if not self.extent_ok(state.cfg, grid, ((x, y), (x2, y2))):
            return f"({x}, {y}) rotation {r} makes the territory wider than " \
                   f"{state.cfg.extent} x {state.cfg.extent}"
        a, b = state.cfg.tiles[tile]
        if not (self.connects(grid, i, a[0]) or self.connects(grid, j, b[0])):
            return f"({x}, {y}) rotation {r} touches neither the castle nor the same terrain"
        return None

    def placements(self, state: KdState, grid: str, tile: int) -> list[Put]:
        if self._fast:
            return list(_fast_placements(grid, state.cfg.tiles[tile], state.cfg.extent))
        return [(x, y, r) for y in range(N) for x in range(N) for r in range(4)
                if grid[2 * (y * N + x)] == "_"
                and self.placement_error(state, grid, tile, (x, y, r)) is None]

    def fits_somewhere(self, state: KdState, grid: str, tile: int) -> bool:
        if self._fast:
            return any(_fast_masks(grid, state.cfg.tiles[tile], state.cfg.extent))
        for y in range(N):
            for x in range(N):
                if grid[2 * (y * N + x)] == "_":
                    for r in range(4):
                        if self.placement_error(state, grid, tile, (x, y, r)) is None:
                            return True
        return False

    def place(self, state: KdState, grid: str, tile: int, put: Put) -> str:
        x, y, r = put
        a, b = state.cfg.tiles[tile]
        i = y * N + x
        if self._fast:  # KD-PLACE-ROTATION as an index step (the hook is the reference's)
            j = i + CELL_STEP[r]
        else:
            x2, y2 = self.second_cell(x, y, r)
            j = y2 * N + x2
        if not (0 <= i < N * N and 0 <= j < N * N and i != j):
            cells = list(grid)
            cells[2 * i:2 * i + 2] = a
            cells[2 * j:2 * j + 2] = b
            return "".join(cells)
        if i < j:
            new = grid[:2 * i] + a + grid[2 * i + 2:2 * j] + b + grid[2 * j + 2:]
        else:
            new = grid[:2 * j] + b + grid[2 * j + 2:2 * i] + a + grid[2 * i + 2:]
        # the new grid's facts from its parent's, when the parent's are known and the two
        # cells were empty (an engine that places over a square recomputes them on demand)
        parent = known(grid)
        if parent is not None and grid[2 * i] == "_" and grid[2 * j] == "_":
            remember(new, parent.placed(i, a, j, b))
        return new
# KD-PLACE-ROTATION: the second square is right (0), below (1), left (2) or above (3)
OFFSETS = ((1, 0), (0, 1), (-1, 0), (0, -1))
CELL_STEP = tuple(dx + N * dy for dx, dy in OFFSETS)  # the same, as a step of cell index


@cache
def neighbours(i: int) -> tuple[int, ...]:
    """The orthogonal neighbours of cell i inside the grid."""
    x, y = i % N, i // N
    return tuple(ny * N + nx for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
                 if 0 <= nx < N and 0 <= ny < N)


def _bbox(grid: str) -> tuple[int, int, int, int]:
    """min x, max x, min y, max y of the occupied cells (castle included)."""
    k = kingdom(grid)
    return k.x0, k.x1, k.y0, k.y1


@lru_cache(maxsize=4096)
def _fast_masks(grid: str, tile: Tile, size: int) -> tuple[int, ...]:
    """Every placement of `tile` on `grid` by KD-GRID, KD-PLACE-NO-OVERLAP, -EXTENT and
    -CONNECT, as four rotation masks: the reference hooks' conjunction in bit form
    (`bitboard.placement_masks`). Cached (bounded): the listing, the discard test and apply
    ask about the same grid in a row."""
    return placement_masks(kingdom(grid), tile[0][0], tile[1][0], size)


@lru_cache(maxsize=4096)
def _fast_placements(grid: str, tile: Tile, size: int) -> tuple[Put, ...]:
    """`_fast_masks` as puts, in the slow listing's order (row, column, rotation)."""
    return puts_of(_fast_masks(grid, tile, size))
