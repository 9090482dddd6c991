"""A small Kingdomino (Coders of the Realm) bot library: reads the CodinGame lines, finds the
legal placements of the tile in play and answers PUT + PICK.

The example bots in this folder import it (a script's folder is on its import path); each
faulty bot changes one thing about how it answers. Protocol: `nbPlayers` and `nbTiles` once,
then per turn every 9 x 9 grid (ours first, cells of two characters), nbTiles lines `tileId
first second playerId current` (tiles placed now) and nbTiles lines `tileId first second
playerId` (tiles to pick, -1 while free); two lines back, `PUT x y rotation` and `PICK id`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field

N = 9
EXTENT = 5  # the territory spans at most 5 x 5 squares
OFFSETS = ((1, 0), (0, 1), (-1, 0), (0, -1))  # rotation: second square right/below/left/above


@dataclass
class Turn:
    number: int  # 1-based count of the questions this bot was asked
    grid: list[str]  # our 9 rows
    tile: tuple[int, str, str] | None  # the tile we place now (id, first, second) or None
    free: list[int] = field(default_factory=list)  # tiles we may pick
    line_size: int = 0
    last: bool = False  # no tile to pick: the last turn

    def terrain(self, x: int, y: int) -> str:
        return self.grid[y][2 * x]

    def placements(self, extent: int = EXTENT) -> list[tuple[int, int, int]]:
        if self.tile is None:
            return []
        _, a, b = self.tile
        used = [(x, y) for y in range(N) for x in range(N) if self.terrain(x, y) != "_"]
        out = []
        for y in range(N):
            for x in range(N):
                for r, (dx, dy) in enumerate(OFFSETS):
                    x2, y2 = x + dx, y + dy
                    if not (0 <= x2 < N and 0 <= y2 < N):
                        continue
                    if self.terrain(x, y) != "_" or self.terrain(x2, y2) != "_":
                        continue
                    xs = [p[0] for p in used] + [x, x2]
                    ys = [p[1] for p in used] + [y, y2]
                    if max(xs) - min(xs) >= extent or max(ys) - min(ys) >= extent:
                        continue
                    if self.touches(x, y, a[0]) or self.touches(x2, y2, b[0]):
                        out.append((x, y, r))
        return out

    def touches(self, x: int, y: int, terrain: str) -> bool:
        for dx, dy in OFFSETS:
            nx, ny = x + dx, y + dy
            if 0 <= nx < N and 0 <= ny < N and self.terrain(nx, ny) in ("*", terrain):
                return True
        return False

    def answer(self) -> tuple[str, str]:
        """A legal reply: the first legal placement (or any numbers when none is needed),
        the smallest free tile (any id on the last turn)."""
        found = self.placements()
        x, y, r = found[0] if found else (0, 0, 0)
        pick = min(self.free) if self.free else 0
        return f"PUT {x} {y} {r}", f"PICK {pick}"


def read_turn(stdin: object, players: int, line_size: int, number: int) -> Turn | None:
    rd = stdin.readline  # type: ignore[attr-defined]
    first = rd()
    if not first:
        return None
    rows = [first.strip()] + [rd().strip() for _ in range(N * players - 1)]
    tile = None
    for _ in range(line_size):
        t, a, b, _owner, current = rd().split()
        if current == "1" and t != "-1":
            tile = (int(t), a, b)
    free = []
    for _ in range(line_size):
        t, _a, _b, owner = rd().split()
        if t != "-1" and owner == "-1":
            free.append(int(t))
    return Turn(number, rows[:N], tile, free, line_size, last=not free)


def play(answer: Callable[[Turn], list[str]] | None = None) -> None:
    """Read stdin to the end; write `answer(turn)` (default: a legal PUT and PICK) per turn."""
    stdin = sys.stdin
    players = int(stdin.readline())
    line_size = int(stdin.readline())
    number = 0
    while True:
        number += 1
        turn = read_turn(stdin, players, line_size, number)
        if turn is None:
            return
        lines = answer(turn) if answer is not None else list(turn.answer())
        sys.stdout.write("".join(line + "\n" for line in lines))
        sys.stdout.flush()
