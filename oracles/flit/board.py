"""Reading Flit's canonical JSON: squares, neighbours, counts. Independent of the engine."""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from gamecert.spec import Profile

JSON = Any
BOT_CHARS = "1234"


@cache
def torus_neighbours(w: int, h: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(((y + dy) % h) * w + (x + dx) % w for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)))
        for y in range(h) for x in range(w))


@cache
def planar_neighbours(w: int, h: int) -> tuple[tuple[int, ...], ...]:
    """Neighbours without wrapping: what an engine that forgets the torus would see."""
    return tuple(
        tuple((y + dy) * w + (x + dx) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
              if 0 <= x + dx < w and 0 <= y + dy < h)
        for y in range(h) for x in range(w))


def index(state: JSON, xy: JSON) -> int | None:
    """Square index of [x, y], or None when off the board."""
    x, y = xy
    if 0 <= x < state["width"] and 0 <= y < state["height"]:
        return int(y * state["width"] + x)
    return None


def xy(state: JSON, i: int) -> list[int]:
    return [i % state["width"], i // state["width"]]


def nbrs(state: JSON) -> tuple[tuple[int, ...], ...]:
    return torus_neighbours(state["width"], state["height"])


def available(state: JSON, i: int) -> bool:
    board = state["board"]
    return board[i] == "0" and all(board[n] == "0" for n in nbrs(state)[i])


_last_counts: list[Any] = [None, []]


def bot_counts(board: str) -> list[int]:
    """Pieces of bots 1-4 (remembered for the last board: several oracles ask)."""
    if _last_counts[0] is not board:
        _last_counts[:] = [board, [board.count(c) for c in BOT_CHARS]]
    return list(_last_counts[1])


_last_diff: list[Any] = [None, None, {}]


def changed(before: str, after: str) -> dict[int, str]:
    """Squares whose colour differs, with the new colour.

    Several oracles ask this of the same transition, and a move changes a handful of
    squares out of 1,024: compare 64-square slices first, then squares, and remember the
    last answer.
    """
    if before == after:
        return {}
    if _last_diff[0] is before and _last_diff[1] is after:
        return dict(_last_diff[2])
    if len(before) != len(after):
        raise ValueError(f"boards of {len(before)} and {len(after)} squares")
    out = {}
    for k in range(0, len(before), 64):
        if before[k:k + 64] != after[k:k + 64]:
            for i in range(k, min(k + 64, len(before))):
                if before[i] != after[i]:
                    out[i] = after[i]
    _last_diff[:] = [before, after, out]
    return dict(out)


def patched(board: str, changes: dict[int, str]) -> str:
    """`board` with the given squares recoloured: what the board should become. Comparing
    it with the engine's board is one string comparison, far cheaper than a diff."""
    if not changes:
        return board
    parts, last = [], 0
    for i in sorted(changes):
        parts.append(board[last:i])
        parts.append(changes[i])
        last = i + 1
    parts.append(board[last:])
    return "".join(parts)


def move_squares(state: JSON, action: JSON) -> tuple[int, int] | None:
    """(origin, destination) of a move action, or None when a square is off the board."""
    o, d = index(state, action["from"]), index(state, action["to"])
    if o is None or d is None:
        return None
    return o, d


def own_touching(state: JSON, origin: int, dest: int, bot: int, planar: bool = False) -> list[int]:
    """Pieces of `bot`, other than the one at `origin`, next to `dest`."""
    table = planar_neighbours if planar else torus_neighbours
    board, c = state["board"], str(bot)
    near = table(state["width"], state["height"])[dest]
    return [n for n in near if n != origin and board[n] == c]


def wrap_dependent(state: JSON, origin: int, dest: int, bot: int) -> bool:
    """The move is legal only because the board wraps (FLIT-BOARD-TORUS's business)."""
    return bool(own_touching(state, origin, dest, bot)) and not own_touching(
        state, origin, dest, bot, planar=True)


def move_valid(state: JSON, origin: int, dest: int, bot: int) -> bool:
    """FLIT-MOVE-VALID on the torus."""
    board = state["board"]
    return (origin != dest and board[origin] == str(bot) and board[dest] == "0"
            and bool(own_touching(state, origin, dest, bot)))


class MoveFacts(NamedTuple):
    origin: int
    dest: int
    valid: bool  # FLIT-MOVE-VALID on the torus
    wrap_dependent: bool  # valid only because the board wraps


_last_move: list[Any] = [None, None, None]


def move_facts(state: JSON, action: JSON) -> MoveFacts | None:
    """What the move rule says of a move action (None when a square is off the board).
    Remembered for the last (state, action): three oracles ask about each move."""
    if _last_move[0] is state and _last_move[1] is action:
        facts: MoveFacts | None = _last_move[2]
        return facts
    squares = move_squares(state, action)
    facts = None
    if squares is not None:
        o, d = squares
        bot = state["to_move"]
        facts = MoveFacts(o, d, move_valid(state, o, d, bot), wrap_dependent(state, o, d, bot))
    _last_move[:] = [state, action, facts]
    return facts


def frozen_turns_count(profile: Profile) -> bool:
    return bool(profile.variant("FLIT-FREEZE") == "turn-as-no-move")


def active_bots(state: JSON, profile: Profile) -> int:
    if frozen_turns_count(profile):
        return 4
    return 4 - sum(1 for f in state["frozen"] if f)
