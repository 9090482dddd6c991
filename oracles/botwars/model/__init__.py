"""Bot Wars restated from the catalogue for the oracles, on canonical JSON only.

This folder is the oracles' own model of the game: this module (fields, squares, moves,
the catalogue's readings), `turn.py` (the rules' account of one turn), `steps.py` (what
several oracles derive from one transition, once) and `account.py` (what an engine's own
states say it did, for the state-only forms). The oracles, one file per rule area, are in
the folder above.

Nothing here comes from the reference engine: squares are handled as (row, col) pairs, the
field as a string, a list of moves as what the catalogue text says of it. Two independent
statements of each rule are what lets an oracle judge the reference engine too.

The oracles of later steps build on the *engine's own* account of earlier steps (its events),
so a broken rule shows up at the oracle of that rule and not at every oracle after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from gamecert.spec import Profile

JSON = Any
LIVE = {1: "1", 2: "2"}
DEAD = {1: "x", 2: "X"}
SIDE = {"p1": 1, "p2": 2}
NAME = {1: "p1", 2: "p2"}


@dataclass(frozen=True)
class Readings:
    """The profile's parameters and chosen readings, as the oracles need them."""

    rows: int
    cols: int
    wrap: bool
    spawn: dict[int, int]
    initial_energy: int
    on_field_at_start: bool
    twice_all: bool  # BOTWARS-MOVE = all-invalid
    stay_ok: bool
    follow_own: bool
    swap_ok: bool
    first_wins: bool
    crowd_dies: bool  # BOTWARS-MOVE-SAME-TARGET = die-there
    gather: bool
    collide_kills: bool
    collide_there: bool  # BOTWARS-MOVE-COLLIDE = die-there
    lose_turn: bool
    every_fight: bool
    cost: int
    spend_anyway: bool
    diagonal_energy: bool
    majority: bool
    interval: int
    from_first: bool
    timeout_dq: bool
    max_turns: int
    tie_by_energy: bool
    energy_on_spawn: bool  # BOTWARS-ENERGY-SQUARES = any-empty
    markers_empty: bool  # BOTWARS-DEAD-MARKERS = empty
    number_values: bool  # BOTWARS-FORMAT-DQ = integer-value

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def __hash__(self) -> int:
        # `spawn` is a dict, so the generated hash would raise and every cache keyed by the
        # readings (`_judged`) would miss; `readings()` makes one per profile, so identity
        # will do (an equal copy elsewhere only misses the cache)
        return id(self)

    def on_field(self, square: Any) -> bool:
        return isinstance(square, int) and 0 <= square < self.size

    def adjacent(self, square: int, diagonal: bool = False) -> frozenset[int]:
        return _adjacent(self.rows, self.cols, self.wrap, diagonal, square)

    def neighbours(self, diagonal: bool = False) -> tuple[tuple[int, ...], ...]:
        """Every square's `adjacent` squares (ascending), as one table: for loops that ask
        about many squares at once."""
        return _neighbours(self.rows, self.cols, self.wrap, diagonal)

    def neighbour_sets(self, diagonal: bool = False) -> tuple[frozenset[int], ...]:
        """Every square's `adjacent` set, as one table (index it with a square of the
        field only: `adjacent` answers for any number)."""
        return _neighbour_sets(self.rows, self.cols, self.wrap, diagonal)

    def touches_spawn(self, square: int) -> bool:
        return square in self.spawn.values()

    def energy_free(self, grid: str, square: int) -> bool:
        """May energy be placed on `square` (BOTWARS-ENERGY-SPAWN: empty, see `vacant`;
        -SQUARES: a spawn point only under any-empty)?"""
        return self.vacant(grid[square]) and (self.energy_on_spawn
                                              or not self.touches_spawn(square))

    def vacant(self, char: str) -> bool:
        """Empty for spawning and energy placement: '.', or a dead marker when
        BOTWARS-DEAD-MARKERS reads markers as empty squares."""
        return char == "." or (self.markers_empty and char in "xX")

    def energy_due(self, turns: int) -> bool:
        if turns < 1:
            return False
        return (turns - 1 if self.from_first else turns) % self.interval == 0


@cache
def _adjacent(rows: int, cols: int, wrap: bool, diagonal: bool, square: int) -> frozenset[int]:
    r, c = divmod(square, cols)
    out = set()
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) == (0, 0) or (dr and dc and not diagonal):
                continue
            rr, cc = r + dr, c + dc
            if wrap:
                rr, cc = rr % rows, cc % cols
            if 0 <= rr < rows and 0 <= cc < cols and rr * cols + cc != square:
                out.add(rr * cols + cc)
    return frozenset(out)


@cache
def _neighbours(rows: int, cols: int, wrap: bool, diagonal: bool
                ) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(sorted(_adjacent(rows, cols, wrap, diagonal, sq)))
                 for sq in range(rows * cols))


@cache
def _neighbour_sets(rows: int, cols: int, wrap: bool, diagonal: bool
                    ) -> tuple[frozenset[int], ...]:
    return tuple(_adjacent(rows, cols, wrap, diagonal, sq) for sq in range(rows * cols))


@cache  # profiles hash by identity
def readings(profile: Profile) -> Readings:
    p, v = profile.param, profile.variant
    return Readings(
        rows=p("BOTWARS-GRID", "rows"), cols=p("BOTWARS-GRID", "cols"),
        wrap=v("BOTWARS-GRID") == "wrap",
        spawn={1: p("BOTWARS-SPAWN-POINTS", "p1_spawn"), 2: p("BOTWARS-SPAWN-POINTS", "p2_spawn")},
        initial_energy=p("BOTWARS-FIRST-BOTLETS", "initial_energy"),
        on_field_at_start=v("BOTWARS-FIRST-BOTLETS") == "on-field-at-start",
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
        every_fight=v("BOTWARS-BATTLE") == "lose-every-fight",
        cost=p("BOTWARS-SPAWN", "cost"), spend_anyway=v("BOTWARS-SPAWN") == "spend-anyway",
        diagonal_energy=v("BOTWARS-ENERGY-COLLECT") == "eight-neighbours",
        majority=v("BOTWARS-ENERGY-CONTESTED") == "majority",
        interval=p("BOTWARS-ENERGY-SPAWN", "interval"),
        from_first=v("BOTWARS-ENERGY-SPAWN") == "from-first",
        timeout_dq=v("BOTWARS-TIME-LIMIT") == "disqualify",
        max_turns=p("BOTWARS-END-TURNLIMIT", "max_turns"),
        tie_by_energy=v("BOTWARS-WINNER") == "energy-tiebreak",
        energy_on_spawn=v("BOTWARS-ENERGY-SQUARES") == "any-empty",
        markers_empty=v("BOTWARS-DEAD-MARKERS") == "empty",
        number_values=v("BOTWARS-FORMAT-DQ") == "integer-value",
    )


# --- lists of moves ------------------------------------------------------------------------
@dataclass
class ListJudgement:
    """What the rules make of one bot's list on the field at the start of the turn."""

    moves: list[tuple[Any, Any]]
    broken: list[set[str]]  # per entry: every rule the entry breaks (empty: valid)
    stays: set[int] = field(default_factory=set)  # indices of valid stay entries
    # per entry: the stage that found it invalid (0 single-move checks, 1 a botlet named
    # twice, 2 same target, 3 swaps and following own botlets), -1 when valid
    stage: list[int] = field(default_factory=list)

    @property
    def invalid(self) -> list[int]:
        return [i for i, b in enumerate(self.broken) if b]

    @property
    def valid_moves(self) -> list[tuple[int, int]]:
        return sorted((f, t) for i, (f, t) in enumerate(self.moves)
                      if not self.broken[i] and i not in self.stays)

    def carried_out(self, r: Readings) -> list[tuple[int, int]]:
        """BOTWARS-MOVE-INVALID applied."""
        if self.invalid and r.lose_turn:
            return []
        return self.valid_moves


def judge_list(r: Readings, grid: str, side: int, moves: list[tuple[Any, Any]]) -> ListJudgement:
    """Every rule each entry breaks, stage by stage as the catalogue orders them. The
    answer is shared between calls (every move oracle judges the same list of a
    transition): do not change it."""
    # the types belong in the key: 21.0 == 21 == True, but only 21 is a square
    kinds = tuple((type(f), type(t)) for f, t in moves)
    try:
        return _judged(r, grid, side, tuple(moves), kinds)
    except TypeError:  # an entry that is not hashable: not from a well-formed list
        return _judge_list(r, grid, side, list(moves))


@lru_cache(maxsize=64)
def _judged(r: Readings, grid: str, side: int, moves: tuple[tuple[Any, Any], ...],
            kinds: tuple[tuple[type, type], ...]) -> ListJudgement:
    return _judge_list(r, grid, side, list(moves))


def _judge_list(r: Readings, grid: str, side: int,
                moves: list[tuple[Any, Any]]) -> ListJudgement:
    own, foe = LIVE[side], LIVE[3 - side]
    j = ListJudgement(list(moves), [set() for _ in moves])
    # the readings looked up once for the loop: `r.on_field` spelt out, and the adjacency
    # table indexed only with a square of the field (as `r.adjacent` would answer)
    size, near = r.size, r.neighbour_sets()
    # single-move checks: all that fail, not just the first
    for i, (f, t) in enumerate(moves):
        b = j.broken[i]
        f_on = isinstance(f, int) and 0 <= f < size
        mine = f_on and grid[f] == own
        if not mine:
            b.add("BOTWARS-MOVE")
        if f == t:
            if mine and not r.stay_ok:
                b.add("BOTWARS-MOVE-STAY")
            continue
        if not (isinstance(t, int) and 0 <= t < size):
            b.add("BOTWARS-MOVE")
            continue
        if not f_on or t not in near[f]:
            b.add("BOTWARS-MOVE")
        there = grid[t]
        if there == "*" and not r.gather:
            b.add("BOTWARS-MOVE-ENERGY")
        if there == foe or (there == own and not r.follow_own):
            b.add("BOTWARS-MOVE-OCCUPIED")
    j.stage = [0 if b else -1 for b in j.broken]
    # a botlet named twice: the later entries (first-counts), or all of them (all-invalid)
    named: set[int] = set()
    names = [f for i, (f, _) in enumerate(moves) if not j.broken[i]]
    # a stage that breaks no entry leaves the stages as they are: `_mark_stage` is skipped
    fresh = False
    for i, (f, _) in enumerate(moves):
        if j.broken[i]:
            continue
        if f in named or (r.twice_all and names.count(f) > 1):
            j.broken[i].add("BOTWARS-MOVE")
            fresh = True
        named.add(f)
    for i, (f, t) in enumerate(moves):
        if not j.broken[i] and f == t:
            j.stays.add(i)
    if fresh:
        _mark_stage(j, 1)
    # two moves onto one square
    by_target: dict[int, list[int]] = {}
    for i, (_, t) in enumerate(moves):
        if not j.broken[i] and i not in j.stays:
            by_target.setdefault(t, []).append(i)
    fresh = False
    for group in by_target.values():
        if len(group) > 1 and not r.crowd_dies:  # die-there: they stand, and die in step 1
            for i in (group[1:] if r.first_wins else group):
                j.broken[i].add("BOTWARS-MOVE-SAME-TARGET")
                fresh = True
    if fresh:
        _mark_stage(j, 2)
    if r.follow_own:
        _follow(r, grid, own, j)
    _mark_stage(j, 3)
    return j


def _mark_stage(j: ListJudgement, stage: int) -> None:
    j.stage = [s if s >= 0 or not b else stage for s, b in zip(j.stage, j.broken, strict=True)]


def _follow(r: Readings, grid: str, own: str, j: ListJudgement) -> None:
    """follow-own: an own botlet's square is free when it leaves by a move that stands."""
    live = {i for i, b in enumerate(j.broken) if not b and i not in j.stays}
    leaves = {j.moves[i][0]: i for i in live}
    if not r.swap_ok:
        for i in list(live):
            f, t = j.moves[i]
            back = leaves.get(t)
            if grid[t] == own and back is not None and j.moves[back][1] == f:
                j.broken[i].add("BOTWARS-MOVE-SWAP")
        live = {i for i in live if not j.broken[i]}
    while True:
        leaving = {j.moves[i][0] for i in live}
        stuck = {i for i in live if grid[j.moves[i][1]] == own
                 and j.moves[i][1] not in leaving}
        if not stuck:
            return
        for i in stuck:
            j.broken[i].add("BOTWARS-MOVE-OCCUPIED")
        live -= stuck


def moves_of(action: JSON) -> list[tuple[Any, Any]]:
    return [(m["from"], m["to"]) for m in action.get("moves", [])]


def well_formed(action: JSON) -> bool:
    """Is `action` a Bot Wars action document at all (schemas/botwars-action, with JSON
    integers only)? The judges rule on these alone: a malformed document is refused
    whatever the rules say, and its members cannot be read as the rules read them."""
    if not isinstance(action, dict):
        return False
    kind, keys = action.get("type"), set(action)
    if kind == "moves":
        moves = action.get("moves")
        return keys == {"type", "moves"} and isinstance(moves, list) and all(
            isinstance(m, dict) and set(m) == {"from", "to"}
            and type(m["from"]) is int and type(m["to"]) is int for m in moves)
    if kind in ("bad-format", "timeout"):
        return keys == {"type"}
    if kind == "energy":
        at = action.get("at")
        return keys == {"type", "at"} and (at is None or (
            isinstance(at, list) and len(at) == 2 and all(type(v) is int and v >= 0
                                                           for v in at)))
    return False


def engine_invalid(events: list[JSON], player: str) -> dict[int, str]:
    """The entries the engine says are invalid: index -> the rule it names."""
    out: dict[int, str] = {}
    for e in events:
        if e.get("player") != player:
            continue
        if e["type"] == "move-invalid":
            out[e["index"]] = e["breaks"]
        elif e["type"] == "turn-lost":
            for bad in e["invalid"]:
                out[bad["index"]] = bad["breaks"]
    return out


def engine_reasons(events: list[JSON], player: str) -> dict[int, str]:
    """The reason the engine gives for each entry it says is invalid: index -> reason."""
    out: dict[int, str] = {}
    for e in events:
        if e.get("player") != player:
            continue
        if e["type"] == "move-invalid":
            out[e["index"]] = e.get("reason", "")
        elif e["type"] == "turn-lost":
            for bad in e["invalid"]:
                out[bad["index"]] = bad.get("reason", "")
    return out


def engine_carried(t_before: JSON, t_after: JSON, events: list[JSON],
                   player: str) -> list[tuple[int, int]] | None:
    """The moves the engine took from `player`'s list (before collisions), or None when the
    transition does not show them."""
    if player == "p1":
        if t_after["phase"] != "p2" or t_after["pending"] is None:
            return None
        return sorted((m["from"], m["to"]) for m in t_after["pending"])
    return sorted((e["from"], e["to"]) for e in events if e.get("player") == "p2"
                  and e["type"] in ("moved", "bounced", "collided"))


def is_submission(before: JSON, action: JSON) -> bool:
    return before["phase"] in ("p1", "p2") and action.get("type") == "moves"


def is_resolution(before: JSON, action: JSON, r: Readings) -> bool:
    """Does this transition carry out a turn (p2's list, or p2's time-out as an empty one)?"""
    if before["phase"] != "p2":
        return False
    return action.get("type") == "moves" or (action.get("type") == "timeout"
                                              and not r.timeout_dq)


# --- the field step by step, from the engine's own account --------------------------------
def cleared(grid: str) -> list[str]:
    if type(grid) is str:  # the string's own replace, then one list of its characters
        return list(grid.replace("x", ".").replace("X", "."))
    return ["." if c in "xX" else c for c in grid]


@lru_cache(maxsize=8)
def cleared_view(grid: str) -> list[str]:
    """`cleared(grid)` shared between callers that only read it (the field at the start of
    a turn, which several oracles look up): do not change it."""
    return cleared(grid)


def after_moves(before: JSON, events: list[JSON]) -> list[str]:
    """The field after step 1 as the engine reports it: the moves at once, then the
    collision deaths."""
    g = cleared(before["grid"])
    moved = [e for e in events if e["type"] == "moved"]
    for e in moved:
        g[e["from"]] = "."
    for e in moved:
        g[e["to"]] = LIVE[SIDE[e["player"]]]
    step1 = [e for e in events if e["type"] == "died"
             and e["rule"] in ("BOTWARS-MOVE-COLLIDE", "BOTWARS-MOVE-SAME-TARGET")]
    for sq, char in death_marks(step1).items():
        g[sq] = char
    return g


def death_marks(deaths: list[JSON]) -> dict[int, str]:
    """The dead marker each square shows for these deaths: the bot's own, or 'x' where
    botlets of both bots died on one square (BOTWARS-MOVE-COLLIDE = die-there)."""
    sides: dict[int, set[int]] = {}
    for e in deaths:
        sides.setdefault(e["at"], set()).add(SIDE[e["player"]])
    return {sq: DEAD[next(iter(s))] if len(s) == 1 else DEAD[1] for sq, s in sides.items()}


def after_battles(before: JSON, events: list[JSON]) -> list[str]:
    g = after_moves(before, events)
    for e in events:
        if e["type"] == "died" and e["rule"] == "BOTWARS-BATTLE":
            g[e["at"]] = DEAD[SIDE[e["player"]]]
    return g


def after_spawns(before: JSON, events: list[JSON]) -> list[str]:
    g = after_battles(before, events)
    for e in events:
        if e["type"] == "spawned":
            g[e["at"]] = LIVE[SIDE[e["player"]]]
    return g


def squares(grid: Iterable[str], char: str) -> list[int]:
    if type(grid) is str and len(char) == 1:
        return list(where(grid, char))
    return [i for i, c in enumerate(grid) if c == char]


@lru_cache(maxsize=64)
def where(grid: str, char: str) -> tuple[int, ...]:
    """The squares of `grid` (a string) holding `char` (one character), ascending. Cached by
    value: a state's grid is asked about by several oracles, and the state after one step
    is the state before the next."""
    out = []
    find = grid.find
    i = find(char)
    while i >= 0:
        out.append(i)
        i = find(char, i + 1)
    return tuple(out)


def battle_deaths(r: Readings, grid: list[str] | str) -> dict[int, list[int]]:
    """BOTWARS-BATTLE on a post-move field: dead square -> its adjacent enemy squares."""
    return deaths(r, contacts(r, grid))


def contacts(r: Readings, grid: list[str] | str) -> dict[int, list[int]]:
    """Each live botlet next to an enemy on a field (ascending), with those enemies'
    squares (ascending)."""
    foes: dict[int, list[int]] = {}
    if type(grid) is str:  # the live squares found by the string's own search
        nbrs, sets = r.neighbours(), r.neighbour_sets()
        ones, twos = where(grid, "1"), where(grid, "2")
        of_side = {"1": frozenset(twos), "2": frozenset(ones)}  # each side's enemies
        for sq in sorted(ones + twos):
            enemies = of_side[grid[sq]]
            if sets[sq].isdisjoint(enemies):
                continue
            foes[sq] = [n for n in nbrs[sq] if n in enemies]  # ascending already
    else:
        for sq, c in enumerate(grid):
            if c in "12":
                enemy = "2" if c == "1" else "1"
                near = sorted(n for n in r.adjacent(sq) if grid[n] == enemy)
                if near:
                    foes[sq] = near
    return foes


def deaths(r: Readings, foes: dict[int, list[int]]) -> dict[int, list[int]]:
    """BOTWARS-BATTLE on the `contacts` of a post-move field: dead square -> its adjacent
    enemy squares."""
    dead = {}
    for sq, near in foes.items():
        mine = len(near)
        weaker_or_equal = [len(foes[n]) <= mine for n in near]
        if (all(weaker_or_equal) if r.every_fight else any(weaker_or_equal)):
            dead[sq] = near
    return dead


def live_counts(grid: Iterable[str]) -> tuple[int, int]:
    if type(grid) is str:
        return grid.count("1"), grid.count("2")
    g = list(grid)
    return g.count("1"), g.count("2")


def events_of(events: list[JSON], kind: str, rule: str | None = None) -> list[JSON]:
    return [e for e in events if e["type"] == kind and (rule is None or e["rule"] == rule)]


def placed_pair(before: str, after: str) -> tuple[int, int] | None:
    """The mirror pair {s, size - 1 - s} of energy a turn's reply shows placed after the
    turn (an engine that draws for itself replies with the turn and its draw at once): its
    squares hold energy after, and at least one did not before (the other may be energy
    collected in the turn and placed again). None: no pair, or not one pair."""
    new = [sq for sq in where(after, "*") if before[sq] != "*"]
    last = len(after) - 1
    if len(new) == 2 and new[0] + new[1] == last:
        return new[0], new[1]
    if len(new) == 1 and after[last - new[0]] == "*":
        low = min(new[0], last - new[0])
        return low, last - low
    return None
