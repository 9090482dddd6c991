"""The state of a Bot Wars game: the field's characters, the players' names, a profile's
configuration (`BotWarsConfig`, resolved once), the immutable state record, the neighbour
tables, and the records of a judged list of moves (`Invalid`, `Checked`).

The bottom layer of the engine: `moves.py` (the lists a bot may send), `turn.py` (a turn
carried out) and `engine.py` (the contract, canonical JSON, the referee) build on it. It
must not import any of them, and holds no rule decision (those are the engine's hooks).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, TypeGuard

from gamecert.spec import Profile

EMPTY, ENERGY = ord("."), ord("*")
BOT = (0, ord("1"), ord("2"))  # BOT[side], side 1 = p1, 2 = p2
DEAD = (0, ord("x"), ord("X"))
NAMES = ("", "p1", "p2")
P1, P2, ENERGY_STEP, OVER = "p1", "p2", "energy", "over"

Move = tuple[int, int]
Action = tuple[Any, ...]
BAD_FORMAT: Action = ("bad-format",)
TIMEOUT: Action = ("timeout",)

_CLEAR_DEAD = bytes.maketrans(b"xX", b"..")


@dataclass(frozen=True)
class Invalid:
    """An entry of a list that is not a valid move, and the rule it breaks."""

    index: int
    move: Move
    reason: str
    rule: str

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "from": self.move[0], "to": self.move[1],
                "reason": self.reason, "breaks": self.rule}


@dataclass(frozen=True)
class Checked:
    """A list judged against the field: its valid moves, valid stays and invalid entries."""

    valid: tuple[Move, ...]
    stays: tuple[int, ...]
    invalid: tuple[Invalid, ...]


@dataclass(frozen=True)
class BotWarsConfig:
    """A profile's parameters and chosen variants, resolved once."""

    profile: Profile
    rows: int
    cols: int
    wrap: bool  # BOTWARS-GRID = wrap
    spawns: tuple[int, int, int]  # indexed by side; [0] unused
    initial_energy: int
    first_on_field: bool  # BOTWARS-FIRST-BOTLETS = on-field-at-start
    twice_all: bool  # BOTWARS-MOVE = all-invalid
    stay_ok: bool  # BOTWARS-MOVE-STAY = no-op
    follow_own: bool  # BOTWARS-MOVE-OCCUPIED = follow-own
    swap_ok: bool  # BOTWARS-MOVE-SWAP = allowed
    first_wins: bool  # BOTWARS-MOVE-SAME-TARGET = first-wins
    crowd_dies: bool  # BOTWARS-MOVE-SAME-TARGET = die-there
    gather: bool  # BOTWARS-MOVE-ENERGY = gather
    collide_kills: bool  # BOTWARS-MOVE-COLLIDE = both-die
    collide_there: bool  # BOTWARS-MOVE-COLLIDE = die-there
    lose_turn: bool  # BOTWARS-MOVE-INVALID = lose-turn
    battle_every: bool  # BOTWARS-BATTLE = lose-every-fight
    spawn_cost: int
    spend_anyway: bool  # BOTWARS-SPAWN = spend-anyway
    collect_diagonal: bool  # BOTWARS-ENERGY-COLLECT = eight-neighbours
    majority: bool  # BOTWARS-ENERGY-CONTESTED = majority
    interval: int
    energy_from_first: bool  # BOTWARS-ENERGY-SPAWN = from-first
    timeout_dq: bool  # BOTWARS-TIME-LIMIT = disqualify
    limit_ms: int
    max_turns: int
    tie_by_energy: bool  # BOTWARS-WINNER = energy-tiebreak
    energy_on_spawn: bool  # BOTWARS-ENERGY-SQUARES = any-empty
    markers_empty: bool  # BOTWARS-DEAD-MARKERS = empty
    number_values: bool  # BOTWARS-FORMAT-DQ = integer-value
    nbrs: tuple[tuple[int, ...], ...]  # squares adjacent to each square
    nbrs8: tuple[tuple[int, ...], ...]  # the eight around each square (energy variant)

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @staticmethod
    def of(profile: Profile) -> BotWarsConfig:
        return _config(profile)


@cache
def neighbour_table(rows: int, cols: int, wrap: bool,
                    diagonal: bool = False) -> tuple[tuple[int, ...], ...]:
    steps = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, 1), (1, -1)]
    table = []
    for r in range(rows):
        for c in range(cols):
            out: list[int] = []
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if wrap:
                    rr, cc = rr % rows, cc % cols
                elif not (0 <= rr < rows and 0 <= cc < cols):
                    continue
                sq = rr * cols + cc
                if sq != r * cols + c and sq not in out:  # tiny wrapped grids repeat squares
                    out.append(sq)
            table.append(tuple(out))
    return tuple(table)


@cache
def _config(profile: Profile) -> BotWarsConfig:
    p, v = profile.param, profile.variant
    rows, cols = p("BOTWARS-GRID", "rows"), p("BOTWARS-GRID", "cols")
    wrap = v("BOTWARS-GRID") == "wrap"
    return BotWarsConfig(
        profile=profile, rows=rows, cols=cols, wrap=wrap,
        spawns=(0, p("BOTWARS-SPAWN-POINTS", "p1_spawn"), p("BOTWARS-SPAWN-POINTS", "p2_spawn")),
        initial_energy=p("BOTWARS-FIRST-BOTLETS", "initial_energy"),
        first_on_field=v("BOTWARS-FIRST-BOTLETS") == "on-field-at-start",
        twice_all=v("BOTWARS-MOVE") == "all-invalid",
        stay_ok=v("BOTWARS-MOVE-STAY") == "no-op",
        follow_own=v("BOTWARS-MOVE-OCCUPIED") == "follow-own",
        swap_ok=v("BOTWARS-MOVE-SWAP") == "allowed",
        first_wins=v("BOTWARS-MOVE-SAME-TARGET") == "first-wins",
        crowd_dies=v("BOTWARS-MOVE-SAME-TARGET") == "die-there",
        gather=v("BOTWARS-MOVE-ENERGY") == "gather",
        collide_kills=v("BOTWARS-MOVE-COLLIDE") == "both-die",
        collide_there=v("BOTWARS-MOVE-COLLIDE") == "die-there",
        lose_turn=v("BOTWARS-MOVE-INVALID") == "lose-turn",
        battle_every=v("BOTWARS-BATTLE") == "lose-every-fight",
        spawn_cost=p("BOTWARS-SPAWN", "cost"), spend_anyway=v("BOTWARS-SPAWN") == "spend-anyway",
        collect_diagonal=v("BOTWARS-ENERGY-COLLECT") == "eight-neighbours",
        majority=v("BOTWARS-ENERGY-CONTESTED") == "majority",
        interval=p("BOTWARS-ENERGY-SPAWN", "interval"),
        energy_from_first=v("BOTWARS-ENERGY-SPAWN") == "from-first",
        timeout_dq=v("BOTWARS-TIME-LIMIT") == "disqualify",
        limit_ms=p("BOTWARS-TIME-LIMIT", "limit_ms"),
        max_turns=p("BOTWARS-END-TURNLIMIT", "max_turns"),
        tie_by_energy=v("BOTWARS-WINNER") == "energy-tiebreak",
        energy_on_spawn=v("BOTWARS-ENERGY-SQUARES") == "any-empty",
        markers_empty=v("BOTWARS-DEAD-MARKERS") == "empty",
        number_values=v("BOTWARS-FORMAT-DQ") == "integer-value",
        nbrs=neighbour_table(rows, cols, wrap), nbrs8=neighbour_table(rows, cols, wrap, True))


class BotWarsState(NamedTuple):
    cfg: BotWarsConfig
    grid: bytes  # the protocol's characters, one per square
    phase: str
    turns: int  # turnsElapsed
    energy: tuple[int, int]
    razed: tuple[bool, bool]  # spawnDisabled
    dq: tuple[bool, bool]  # disqualified
    pending: tuple[Move, ...]  # p1's accepted moves, sorted; () outside phase p2
    winner: int  # 0 (none or draw), 1 or 2
    end_reason: str | None

    @property
    def profile(self) -> Profile:
        return self.cfg.profile

    @property
    def side(self) -> int:
        """The bot to move: 1 or 2 (0 outside the bots' phases)."""
        return 1 if self.phase == P1 else 2 if self.phase == P2 else 0


def _pair(values: tuple[Any, Any], side: int, value: Any) -> Any:
    out = list(values)
    out[side - 1] = value
    return tuple(out)


def dead_marker(sides: set[int]) -> int:
    """The one marker of a square where botlets of `sides` died: the bot's own, or 'x' (the
    original game's one mark for a dead unit) when botlets of both bots died there."""
    return DEAD[next(iter(sides))] if len(sides) == 1 else DEAD[1]


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
