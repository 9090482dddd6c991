"""The kit's map: the placed tiles, the river's open end, and the roads, cities and
monasteries as they join up (who holds each, how many edges are still open), so a bot can
list its legal placements and claims and weigh them."""

from __future__ import annotations

from dataclasses import dataclass, field

from kit.tiles import MONASTERY, SIDE_NAMES, STEP, edges, features, river_sides

Pos = tuple[int, int]
Node = tuple[int, int, int]  # x, y, feature index on that tile


@dataclass
class Joined:
    """A road or city as joined on the board (the root of its union)."""

    kind: str
    open: int
    tiles: set[Pos] = field(default_factory=set)
    banners: int = 0
    meeples: dict[int, int] = field(default_factory=dict)

    def points(self) -> int:
        per = 1 if self.kind == "R" else 2
        return per * len(self.tiles) + (2 * self.banners if self.kind == "C" else 0)


class Board:
    def __init__(self) -> None:
        self.grid: dict[Pos, tuple[str, int]] = {}
        self.parent: dict[Node, Node] = {}
        self.roots: dict[Node, Joined] = {}
        self.monks: dict[Pos, int | None] = {}  # monastery -> the player holding it
        self.river_open: Pos | None = None
        self.flow = 0
        self.last_turn = 0
        self.river_phase = True

    # --- unions ------------------------------------------------------------------------
    def find(self, node: Node) -> Node:
        while self.parent[node] != node:
            self.parent[node] = self.parent[self.parent[node]]
            node = self.parent[node]
        return node

    def node_at(self, pos: Pos, side: int) -> Node | None:
        placed = self.grid.get(pos)
        if placed is None:
            return None
        for i, f in enumerate(features(*placed)):
            if f.kind != "M" and side in f.sides:
                return (pos[0], pos[1], i)
        return None

    def joined_at(self, pos: Pos, side: int) -> Joined | None:
        node = self.node_at(pos, side)
        return None if node is None else self.roots[self.find(node)]

    # --- placing -----------------------------------------------------------------------
    def place(self, tile: str, pos: Pos, rotation: int) -> None:
        self.grid[pos] = (tile, rotation)
        for i, f in enumerate(features(tile, rotation)):
            if f.kind == "M":
                self.monks[pos] = None
                continue
            node = (pos[0], pos[1], i)
            self.parent[node] = node
            self.roots[node] = Joined(f.kind, len(f.sides), {pos}, int(f.banner))
            for s in f.sides:
                dx, dy = STEP[s]
                other = self.node_at((pos[0] + dx, pos[1] + dy), (s + 2) % 4)
                if other is not None:
                    self._union(node, other)
                    self.roots[self.find(node)].open -= 2
        self._follow_river(tile, pos, rotation)

    def _union(self, a: Node, b: Node) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        ja, jb = self.roots.pop(ra), self.roots.pop(rb)
        ja.open += jb.open
        ja.tiles |= jb.tiles
        ja.banners += jb.banners
        for p, n in jb.meeples.items():
            ja.meeples[p] = ja.meeples.get(p, 0) + n
        self.parent[rb] = ra
        self.roots[ra] = ja

    def _follow_river(self, tile: str, pos: Pos, rotation: int) -> None:
        sides = river_sides(tile, rotation)
        x, y = pos
        if tile == "RS":
            self.flow, self.last_turn = sides[0], 0
        elif sides and self.river_open == pos:
            outs = [s for s in sides if s != (self.flow + 2) % 4]
            if not outs:  # the lake
                self.river_open = None
                return
            self.last_turn = (outs[0] - self.flow) % 4
            self.flow = outs[0]
        else:
            return
        dx, dy = STEP[self.flow]
        self.river_open = (x + dx, y + dy)

    # --- what may be placed ------------------------------------------------------------
    def touches(self, pos: Pos) -> bool:
        return any((pos[0] + dx, pos[1] + dy) in self.grid for dx, dy in STEP)

    def edges_match(self, tile: str, pos: Pos, rotation: int) -> bool:
        """Every edge facing a placed tile matches it, and at least one does face one."""
        if pos in self.grid:
            return False
        mine = edges(tile, rotation)
        touching = False
        for s, (dx, dy) in enumerate(STEP):
            there = self.grid.get((pos[0] + dx, pos[1] + dy))
            if there is None:
                continue
            touching = True
            if edges(*there)[(s + 2) % 4] != mine[s]:
                return False
        return touching

    def fits(self, tile: str, pos: Pos, rotation: int) -> bool:
        if not self.edges_match(tile, pos, rotation):
            return False
        if river_sides(tile, rotation):
            return self.river_ok(tile, pos, rotation)
        return True

    def river_ok(self, tile: str, pos: Pos, rotation: int) -> bool:
        """The river goes on from its open end, and no two curves in a row turn the same
        way (a U-turn)."""
        if pos != self.river_open:
            return False
        outs = [s for s in river_sides(tile, rotation) if s != (self.flow + 2) % 4]
        turn = (outs[0] - self.flow) % 4 if outs else 0
        return not (turn and turn == self.last_turn)

    def frontier(self) -> list[Pos]:
        around = {(x + dx, y + dy) for (x, y) in self.grid for dx, dy in STEP}
        return sorted(c for c in around if c not in self.grid)

    def placements(self, hand: list[str]) -> list[tuple[int, str, Pos, int]]:
        """Every legal (hand index, tile, pos, rotation), hand in the engine's order."""
        cells = [self.river_open] if self.river_phase and self.river_open else self.frontier()
        out = []
        for index, tile in enumerate(hand):
            for pos in cells:
                for rotation in range(4):
                    if self.fits(tile, pos, rotation):
                        out.append((index, tile, pos, rotation))
        return out

    # --- claims ------------------------------------------------------------------------
    def monastery_done(self, pos: Pos) -> bool:
        return all((pos[0] + dx, pos[1] + dy) in self.grid
                   for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)

    def claimable(self, pos: Pos) -> list[tuple[str, str]]:
        """(placed_on, kind) for every feature of the tile at `pos` that nobody holds and
        that is still open (a finished one is scored, not claimed)."""
        out: list[tuple[str, str]] = []
        if pos in self.monks and self.monks[pos] is None and not self.monastery_done(pos):
            out.append((MONASTERY, "M"))
        tile, rotation = self.grid[pos]
        for f in features(tile, rotation):
            if f.kind == "M":
                continue
            joined = self.joined_at(pos, f.sides[0])
            if joined is not None and not joined.meeples and joined.open > 0:
                out.append((SIDE_NAMES[f.sides[0]], f.kind))
        return out

    def claim(self, pos: Pos, placed_on: str, player: int, delta: int = 1) -> None:
        """A meeple put on (delta 1) or freed from (delta -1) a feature of the tile at pos."""
        if placed_on == MONASTERY:
            self.monks[pos] = player if delta > 0 else None
            return
        joined = self.joined_at(pos, SIDE_NAMES.index(placed_on))
        if joined is None:
            return
        joined.meeples[player] = joined.meeples.get(player, 0) + delta
        if joined.meeples[player] <= 0:
            del joined.meeples[player]

    # --- weighing ----------------------------------------------------------------------
    def gain(self, tile: str, pos: Pos, rotation: int, me: int) -> float:
        """What placing this tile does for `me`, roughly: the points of the roads, cities
        and monasteries it would finish that `me` holds (less those it would finish for
        others), and a little for open edges it joins to features `me` holds."""
        value = 0.0
        for f in features(tile, rotation):
            if f.kind == "M":
                continue
            roots: dict[Node, int] = {}
            for s in f.sides:
                dx, dy = STEP[s]
                other = self.node_at((pos[0] + dx, pos[1] + dy), (s + 2) % 4)
                if other is not None:
                    root = self.find(other)
                    roots[root] = roots.get(root, 0) + 1
            if not roots:
                continue
            joined = [self.roots[r] for r in roots]
            links = sum(roots.values())
            still_open = sum(j.open for j in joined) - links + (len(f.sides) - links)
            holders: dict[int, int] = {}
            for j in joined:
                for p, n in j.meeples.items():
                    holders[p] = holders.get(p, 0) + n
            tiles = set().union(*(j.tiles for j in joined)) | {pos}
            size = len(tiles) * (1 if f.kind == "R" else 2)
            top = max(holders.values(), default=0)
            mine = holders.get(me, 0) == top > 0
            theirs = any(n == top for p, n in holders.items() if p != me) and top > 0
            if still_open == 0:
                value += size if mine else 0
                value -= size if theirs and not mine else 0
            elif mine:
                value += 0.3
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                at = (pos[0] + dx, pos[1] + dy)
                if (dx or dy) and self.monks.get(at) == me:
                    filled = sum((at[0] + a, at[1] + b) in self.grid
                                 for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b)
                    value += 9 if filled == 7 else 0.3
        return value
