"""Bot Wars, played exactly as `spec/botwars.json` says.

A turn is simultaneous; the engine models it as two actions and a resolution: p1 sends its
list of moves (kept in the state, hidden from the bots), p2 sends its list, and the turn is
carried out in the seed's fixed order. When energy is due, a chance action places it.

The grid is kept as the protocol's own characters in a `bytes` (square = row * cols + col),
so `count` and `find` run at C speed and `observe` is a decode. Internal actions are tuples:

* ("moves", ((from, to), ...)): a bot's list as sent (any integers: invalid moves are the
  engine's to ignore, BOTWARS-MOVE-INVALID);
* ("bad-format",): the referee found the reply malformed (BOTWARS-FORMAT-DQ);
* ("timeout",): the bot did not reply in time (BOTWARS-TIME-LIMIT);
* ("energy", s): chance places energy on s and its mirror; s = -1 when no pair is free.

Each step of a turn is a small method, so a mutant that breaks one rule overrides one method.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple, TypeGuard

from gamecert.reference_engine.botwars import rules
from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction, Outcome
from gamecert.schemas import first_error
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


def _whole(literal: str) -> int | float:
    """A JSON number written with a fraction or an exponent, read by its value: an int when
    it is whole (BOTWARS-FORMAT-DQ = integer-value; JSON's 1e2 is 100)."""
    value = float(literal)
    if math.isfinite(value) and value.is_integer():
        return int(value)
    return value


# The documents last found well formed, per schema, each with a copy: blame (fuzz.step.blame)
# loads one state, one action and the draws after it into every departure model in turn,
# and the schema check is most of a load's cost. A document met again (the same object,
# still equal to its copy: nobody changed it since) is not checked again.
_WELL_FORMED: dict[str, list[tuple[Any, Any]]] = {}
_KEPT = 8


def _schema_error(schema: str, doc: Any) -> str | None:
    """`first_error(schema, doc)`, a document met lately and unchanged checked once."""
    seen = _WELL_FORMED.setdefault(schema, [])
    if any(kept is doc and snap == doc for kept, snap in seen):
        return None
    problem = first_error(schema, doc)
    if problem is None:
        seen.append((doc, copy.deepcopy(doc)))
        if len(seen) > _KEPT:
            del seen[0]
    return problem


def dead_marker(sides: set[int]) -> int:
    """The one marker of a square where botlets of `sides` died: the bot's own, or 'x' (the
    original game's one mark for a dead unit) when botlets of both bots died there."""
    return DEAD[next(iter(sides))] if len(sides) == 1 else DEAD[1]


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


class BotWars:
    """The Bot Wars reference engine (`reference_engine.contract.Game`)."""

    name = "botwars"

    # --- contract ------------------------------------------------------------------------
    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        cfg = BotWarsConfig.of(profile)
        grid = bytearray(EMPTY for _ in range(cfg.size))
        energy = cfg.initial_energy
        if cfg.first_on_field:  # BOTWARS-FIRST-BOTLETS: the first botlet is already paid for
            for side in (1, 2):
                grid[cfg.spawns[side]] = BOT[side]
            energy -= cfg.spawn_cost
        return BotWarsState(cfg, bytes(grid), P1, 0, (energy, energy), (False, False),
                            (False, False), (), 0, None)

    def current(self, state: BotWarsState) -> int:
        if state.phase == OVER:
            return TERMINAL
        if state.phase == ENERGY_STEP:
            return CHANCE
        return state.side

    def legal(self, state: BotWarsState) -> list[Action]:
        """The empty list and every list of one valid move (a stay included when allowed).

        The lists a bot may send are far too many to enumerate (each botlet stays or steps:
        up to 5^n lists), and every well-formed list is accepted anyway (invalid moves are
        ignored, not refused). These one-move lists generate the valid lists: a list is valid
        when its moves are among them and do not conflict (BOTWARS-MOVE-SAME-TARGET, ...).
        """
        if state.side == 0:
            return []
        out: list[Action] = [("moves", ())]
        for f in self.botlets(state.grid, state.side):
            if state.cfg.stay_ok:
                out.append(("moves", ((f, f),)))
            for t in state.cfg.nbrs[f]:
                if not self.check_moves(state, state.side, ((f, t),)).invalid:
                    out.append(("moves", ((f, t),)))
        return out

    def chance(self, state: BotWarsState) -> list[Outcome[Action]]:
        if state.phase != ENERGY_STEP:
            return []
        pairs = self.free_pairs(state)
        if not pairs:
            return [Outcome(("energy", -1), Fraction(1))]
        p = Fraction(1, len(pairs))
        return [Outcome(("energy", s), p) for s in pairs]

    def random_chance(self, state: BotWarsState, rng: random.Random) -> Action:
        """Draw an energy outcome with its true probability: rejection sampling is uniform
        over the free pairs and cheap while most of the field is free."""
        half = state.cfg.size // 2
        for _ in range(32):
            s = int(rng.random() * half)
            if self.free_pair(state, s):
                return ("energy", s)
        pairs = self.free_pairs(state)
        return ("energy", rng.choice(pairs) if pairs else -1)

    def random_action(self, state: BotWarsState, rng: random.Random,
                      odd: float = 1 / 16, toward: float = 0.0) -> Action:
        """A random list for the bot to move, for fast random play and fuzzing.

        Each botlet steps four times in five, onto squares that are free by the default
        readings: with probability `toward` the step that most nears the enemy spawn (so
        games see battles, razing and eliminations), else a random direction. With
        probability `odd` one unusual entry is added (off the field, diagonal, staying, onto
        a botlet or energy, a botlet twice, two onto one square, a swap): invalid under
        some readings, valid under others. Where one of p2's botlets stands beside a square
        p1's pending list enters, half the time one such botlet steps onto it (a collision,
        BOTWARS-MOVE-COLLIDE: a random walk meets one in hundreds of turns).
        """
        side, cfg, grid = state.side, state.cfg, state.grid
        if side == 0:
            raise IllegalAction("no bot is to move")
        rand = rng.random
        moves: list[Move] = []
        taken: set[int] = set()
        mine = self.botlets(grid, side)
        if rand() < 0.5:  # either order, so neither bot's corner gets first pick of squares
            mine.reverse()
        goal_r, goal_c = divmod(cfg.spawns[3 - side], cfg.cols)
        for i in mine:
            if rand() < 0.8:
                near = cfg.nbrs[i]
                if toward and rand() < toward:
                    t = min(near, key=lambda n: abs(n // cfg.cols - goal_r)
                            + abs(n % cfg.cols - goal_c))
                else:
                    t = near[int(rand() * len(near))]
                c = grid[t]
                if t not in taken and (c == EMPTY or c == DEAD[1] or c == DEAD[2]
                                       or (cfg.gather and c == ENERGY)):
                    moves.append((i, t))
                    taken.add(t)
        if state.pending:
            self._add_collision(state, rng, moves, taken)
        if rand() < odd:
            self._add_odd_entry(state, rng, moves)
        return ("moves", tuple(moves))

    def _add_collision(self, state: BotWarsState, rng: random.Random, moves: list[Move],
                       taken: set[int]) -> None:
        """Half the time, one of p2's botlets beside a square p1 moves onto steps onto it
        (the random stream is drawn from only where such a botlet stands)."""
        cfg, grid = state.cfg, state.grid
        into = {t for _, t in state.pending if t not in taken}
        near = [(f, t) for t in sorted(into) for f in cfg.nbrs[t] if grid[f] == BOT[2]]
        if not near or rng.random() < 0.5:
            return
        f, t = near[int(rng.random() * len(near))]
        moves[:] = [mv for mv in moves if mv[0] != f]
        moves.append((f, t))
        taken.add(t)

    def _add_odd_entry(self, state: BotWarsState, rng: random.Random,
                       moves: list[Move]) -> None:
        cfg, grid, side = state.cfg, state.grid, state.side
        mine = self.botlets(grid, side)
        f = rng.choice(mine) if mine else rng.randrange(cfg.size)
        near = cfg.nbrs[f]
        kind = rng.randrange(9)
        if kind == 0:  # off the field, two rows down, diagonal
            entry = (f, rng.choice([-1, cfg.size, f + 2 * cfg.cols, f - 1 - cfg.cols]))
        elif kind == 1:  # staying put
            entry = (f, f)
        elif kind == 2 and moves:  # a botlet named twice
            entry = (moves[0][0], rng.choice(cfg.nbrs[moves[0][0]]))
        elif kind == 3 and moves:  # two botlets onto one square
            a = moves[0][1]
            others = [g for g in mine if a in cfg.nbrs[g] and g != moves[0][0]]
            entry = (rng.choice(others) if others else f, a)
        elif kind == 4:  # a swap
            pairs = [(a, b) for a in mine for b in cfg.nbrs[a] if grid[b] == BOT[side]]
            if pairs:
                a, b = rng.choice(pairs)
                moves.insert(rng.randrange(len(moves) + 1), (b, a))
                entry = (a, b)
            else:
                entry = (f, rng.choice(near))
        elif kind == 5:  # anything at all, most likely not even an own botlet
            entry = (rng.randrange(cfg.size), rng.randrange(cfg.size))
        else:
            entry = (f, rng.choice(near))  # whatever is there: own, enemy, energy, empty
        moves.insert(rng.randrange(len(moves) + 1), entry)

    # --- the field -------------------------------------------------------------------------
    def botlets(self, grid: bytes, side: int) -> list[int]:
        out, own = [], BOT[side]
        i = grid.find(own)
        while i >= 0:
            out.append(i)
            i = grid.find(own, i + 1)
        return out

    def counts(self, grid: bytes) -> tuple[int, int]:
        return grid.count(BOT[1]), grid.count(BOT[2])

    def energy_may_cover(self, cfg: BotWarsConfig, square: int) -> bool:
        """BOTWARS-ENERGY-SQUARES: may energy be placed on `square` when it is empty?"""
        return cfg.energy_on_spawn or square not in cfg.spawns[1:]

    def vacant(self, cfg: BotWarsConfig, char: int) -> bool:
        """BOTWARS-DEAD-MARKERS: is a square showing `char` empty for spawning and energy
        placement ('.', or a dead marker under the empty reading)?"""
        return char == EMPTY or (cfg.markers_empty and (char == DEAD[1] or char == DEAD[2]))

    def free_for_energy(self, state: BotWarsState, square: int) -> bool:
        """BOTWARS-ENERGY-SPAWN: empty and allowed by BOTWARS-ENERGY-SQUARES."""
        return (self.vacant(state.cfg, state.grid[square])
                and self.energy_may_cover(state.cfg, square))

    def free_pair(self, state: BotWarsState, s: int) -> bool:
        size = state.cfg.size
        return (0 <= s < size // 2 and self.free_for_energy(state, s)
                and self.free_for_energy(state, size - 1 - s))

    def free_pairs(self, state: BotWarsState) -> list[int]:
        """The smaller squares s of the free mirror pairs {s, size - 1 - s}."""
        cfg = state.cfg
        grid, half = state.grid, cfg.size // 2
        if cfg.markers_empty:
            grid = grid.translate(_CLEAR_DEAD)
        mirror = grid[::-1]
        allowed = self.energy_may_cover
        return [s for s in range(half)
                if grid[s] == EMPTY and mirror[s] == EMPTY and allowed(cfg, s)
                and allowed(cfg, len(grid) - 1 - s)]

    # --- moves (BOTWARS-MOVE and its open points) -----------------------------------------
    def single_move_fault(self, cfg: BotWarsConfig, grid: bytes, side: int,
                          move: Move) -> tuple[str, str] | None:
        """The first single-move check that `move` fails, as (reason, rule), or None."""
        f, t = move
        size = cfg.size
        if not (0 <= f < size) or grid[f] != BOT[side]:
            return "not-own-botlet", "BOTWARS-MOVE"
        if f == t:
            return None if cfg.stay_ok else ("stay", "BOTWARS-MOVE-STAY")
        if not 0 <= t < size:
            return "off-field", "BOTWARS-MOVE"
        if t not in cfg.nbrs[f]:
            return "not-adjacent", "BOTWARS-MOVE"
        c = grid[t]
        if c == ENERGY and not cfg.gather:
            return "energy", "BOTWARS-MOVE-ENERGY"
        if c == BOT[3 - side] or (c == BOT[side] and not cfg.follow_own):
            return "occupied", "BOTWARS-MOVE-OCCUPIED"
        return None

    def check_moves(self, state: BotWarsState, side: int, moves: tuple[Move, ...]) -> Checked:
        """Judge a list against the field at the start of the turn (stages as in the spec:
        single-move checks, a botlet named twice, same target, then following own botlets)."""
        cfg, grid = state.cfg, state.grid
        invalid: list[Invalid] = []
        named: set[int] = set()
        candidates: list[tuple[int, Move]] = []
        stays: list[int] = []
        faults = [self.single_move_fault(cfg, grid, side, move) for move in moves]
        twice = self.named_twice(cfg, moves, faults)
        for index, move in enumerate(moves):
            fault = faults[index]
            if fault is not None:
                invalid.append(Invalid(index, move, *fault))
            elif move[0] in named or move[0] in twice:
                invalid.append(Invalid(index, move, "moved-twice", "BOTWARS-MOVE"))
            else:
                named.add(move[0])
                if move[0] == move[1]:
                    stays.append(move[0])
                else:
                    candidates.append((index, move))
        kept = self.same_target(cfg, candidates, invalid)
        if cfg.follow_own:
            kept = self.follow(cfg, grid, side, kept, invalid)
        invalid.sort(key=lambda bad: bad.index)
        return Checked(tuple(sorted(m for _, m in kept)), tuple(sorted(stays)), tuple(invalid))

    def named_twice(self, cfg: BotWarsConfig, moves: tuple[Move, ...],
                    faults: list[tuple[str, str] | None]) -> set[int]:
        """BOTWARS-MOVE = all-invalid: the botlets that several entries passing the
        single-move checks name (every entry for them is invalid); empty under first-counts,
        where only the later entries are."""
        if not cfg.twice_all or len(moves) < 2:
            return set()
        seen: set[int] = set()
        out: set[int] = set()
        for move, fault in zip(moves, faults, strict=True):
            if fault is None:
                (out if move[0] in seen else seen).add(move[0])
        return out

    def same_target(self, cfg: BotWarsConfig, candidates: list[tuple[int, Move]],
                    invalid: list[Invalid]) -> list[tuple[int, Move]]:
        """BOTWARS-MOVE-SAME-TARGET (under die-there the moves all stand: step 1 kills)."""
        if cfg.crowd_dies:
            return candidates
        seen: dict[int, int] = {}
        for _, (_, t) in candidates:
            seen[t] = seen.get(t, 0) + 1
        kept, used = [], set()
        for index, move in candidates:
            t = move[1]
            if seen[t] > 1 and (not cfg.first_wins or t in used):
                invalid.append(Invalid(index, move, "same-target", "BOTWARS-MOVE-SAME-TARGET"))
            else:
                kept.append((index, move))
            used.add(t)
        return kept

    def follow(self, cfg: BotWarsConfig, grid: bytes, side: int,
               kept: list[tuple[int, Move]], invalid: list[Invalid]) -> list[tuple[int, Move]]:
        """BOTWARS-MOVE-OCCUPIED (follow-own) and BOTWARS-MOVE-SWAP: a move onto an own
        botlet stands only if that botlet leaves by a move that stands (greatest fixpoint)."""
        leaving = {m[0]: (index, m) for index, m in kept}
        own = BOT[side]
        if not cfg.swap_ok:
            for index, (f, t) in kept:
                back = leaving.get(t)
                if grid[t] == own and back is not None and back[1][1] == f:
                    invalid.append(Invalid(index, (f, t), "swap", "BOTWARS-MOVE-SWAP"))
            bad = {b.move[0] for b in invalid if b.reason == "swap"}
            kept = [(i, m) for i, m in kept if m[0] not in bad]
            leaving = {m[0]: (i, m) for i, m in kept}
        changed = True
        while changed:
            changed = False
            for index, (f, t) in list(leaving.values()):
                if grid[t] == own and t not in leaving:
                    invalid.append(Invalid(index, (f, t), "occupied", "BOTWARS-MOVE-OCCUPIED"))
                    del leaving[f]
                    changed = True
        return sorted(leaving.values())

    def accepted(self, cfg: BotWarsConfig, checked: Checked) -> tuple[Move, ...]:
        """BOTWARS-MOVE-INVALID: the moves carried out, given the list's invalid entries."""
        if checked.invalid and cfg.lose_turn:
            return ()
        return checked.valid

    def _judge_list(self, state: BotWarsState, moves: tuple[Move, ...],
                    events: list[Any]) -> tuple[Move, ...]:
        side, name = state.side, NAMES[state.side]
        checked = self.check_moves(state, side, moves)
        accepted = self.accepted(state.cfg, checked)
        lost = bool(checked.invalid) and state.cfg.lose_turn
        if lost:
            events.append({"type": "turn-lost", "rule": "BOTWARS-MOVE-INVALID",
                           "player": name, "invalid": [b.to_json() for b in checked.invalid]})
        else:
            for bad in checked.invalid:
                events.append({"type": "move-invalid", "rule": "BOTWARS-MOVE-INVALID",
                               "player": name, **bad.to_json()})
            for f in checked.stays:
                events.append({"type": "stayed", "rule": "BOTWARS-MOVE-STAY", "player": name,
                               "at": f})
        return accepted

    # --- transitions -------------------------------------------------------------------
    def apply(self, state: BotWarsState, action: Action) -> tuple[BotWarsState, list[Any]]:
        kind = action[0] if isinstance(action, tuple) and action else None
        if state.phase == OVER:
            raise IllegalAction("the game is over")
        if state.phase == ENERGY_STEP:
            if kind != "energy":
                raise IllegalAction(f"an energy placement is due, not {kind!r}")
            return self._place_energy(state, action[1])
        if kind == "moves":
            moves = action[1]
            if type(moves) is not tuple or not all(  # exact types: bools are not squares
                    type(m) is tuple and len(m) == 2 and type(m[0]) is int
                    and type(m[1]) is int for m in moves):
                raise IllegalAction("a list of moves is a tuple of (from, to) integer pairs")
            return self._submit(state, moves, [])
        if kind == "bad-format":
            return self._disqualify(state, "BOTWARS-FORMAT-DQ")
        if kind == "timeout":
            if state.cfg.timeout_dq:
                return self._disqualify(state, "BOTWARS-TIME-LIMIT")
            events: list[Any] = [{"type": "timed-out", "rule": "BOTWARS-TIME-LIMIT",
                                  "player": NAMES[state.side]}]
            return self._submit(state, (), events)
        raise IllegalAction(f"{NAMES[state.side]} must send moves, not {kind!r}")

    def _submit(self, state: BotWarsState, moves: tuple[Move, ...],
                events: list[Any]) -> tuple[BotWarsState, list[Any]]:
        accepted = self._judge_list(state, moves, events)
        if state.phase == P1:  # BOTWARS-TURN-ORDER: p1's list waits, hidden, for p2's
            return state._replace(phase=P2, pending=accepted), events
        return self._carry_out(state, state.pending, accepted, events), events

    def _disqualify(self, state: BotWarsState, rule: str) -> tuple[BotWarsState, list[Any]]:
        side = state.side
        other = 3 - side
        events: list[Any] = [{"type": "disqualified", "rule": rule, "player": NAMES[side]}]
        after = state._replace(dq=_pair(state.dq, side, True), pending=())
        return self._finish(after, "disqualified", other, rule, events), events

    def _carry_out(self, state: BotWarsState, moves1: tuple[Move, ...],
                   moves2: tuple[Move, ...], events: list[Any]) -> BotWarsState:
        """BOTWARS-TURN-ORDER: clear the dead, then steps 1 to 5, the end, and step 6."""
        cfg = state.cfg
        grid = bytearray(state.grid.translate(_CLEAR_DEAD))  # BOTWARS-DEAD-MARKERS
        energy = list(state.energy)
        self.step_moves(cfg, grid, (moves1, moves2), energy, events)
        post_move = bytes(grid)
        for square, enemies in self.battle_deaths(cfg, post_move):
            side = 1 if post_move[square] == BOT[1] else 2
            grid[square] = DEAD[side]
            events.append({"type": "died", "rule": "BOTWARS-BATTLE", "player": NAMES[side],
                           "at": square, "enemies": list(enemies), "enemyCount": len(enemies)})
        razed = self.step_raze(cfg, self.raze_grid(post_move, bytes(grid)), state.razed, events)
        for side in (1, 2):
            self.step_spawn(cfg, grid, side, energy, razed, events)
        self.step_collect(cfg, grid, energy, events)
        after = state._replace(grid=bytes(grid), turns=state.turns + 1,
                               energy=(energy[0], energy[1]), razed=razed, pending=())
        ended = self._check_end(after, events)
        if ended is not None:
            return ended
        return after._replace(phase=ENERGY_STEP if self.energy_due(cfg, after.turns) else P1)

    def step_moves(self, cfg: BotWarsConfig, grid: bytearray,
                   moves: tuple[tuple[Move, ...], tuple[Move, ...]], energy: list[int],
                   events: list[Any]) -> None:
        """Step 1: every accepted move at once. Where botlets of both bots move onto one
        square, BOTWARS-MOVE-COLLIDE; where several of one bot do (only possible under
        BOTWARS-MOVE-SAME-TARGET = die-there), they die there."""
        entrants: dict[int, list[tuple[int, int]]] = {}  # square -> [(k, from)], k = side - 1
        for k in (0, 1):
            for f, t in moves[k]:
                entrants.setdefault(t, []).append((k, f))
        clash = {t for t, into in entrants.items() if len({k for k, _ in into}) == 2}
        die_there = {t for t, into in entrants.items() if len(into) > 1 and t not in clash}
        if cfg.collide_there:
            die_there |= clash
        halted = clash - die_there  # bounce or both-die: nobody enters
        stopped: list[set[int]] = [set(), set()]
        for t in halted:
            for k, f in entrants[t]:
                stopped[k].add(f)
        for k in (0, 1):  # botlets following a stopped botlet stop too, down the line
            grow = True
            while grow:
                grow = False
                for f, t in moves[k]:
                    if t in stopped[k] and f not in stopped[k]:
                        stopped[k].add(f)
                        grow = True
        for k, side in ((0, 1), (1, 2)):
            for f, t in moves[k]:
                if f not in stopped[k]:
                    continue
                kind = "collided" if t in halted and cfg.collide_kills else "bounced"
                events.append({"type": kind, "rule": "BOTWARS-MOVE-COLLIDE",
                               "player": NAMES[side], "from": f, "to": t})
        going = [[(f, t) for f, t in moves[k] if f not in stopped[k]] for k in (0, 1)]
        for k in (0, 1):
            for f, _ in going[k]:
                grid[f] = EMPTY
        for k, side in ((0, 1), (1, 2)):
            for f, t in going[k]:
                if grid[t] == ENERGY and t not in die_there:  # BOTWARS-MOVE-ENERGY = gather
                    energy[k] += 1
                    events.append({"type": "energy-collected", "rule": "BOTWARS-MOVE-ENERGY",
                                   "player": NAMES[side], "at": t})
                grid[t] = BOT[side]
                events.append({"type": "moved", "rule": "BOTWARS-MOVE", "player": NAMES[side],
                               "from": f, "to": t})
        for t in sorted(die_there):  # all of them entered (none follows a stopped botlet)
            arrived = [(k, f) for k, f in sorted(entrants[t]) if f not in stopped[k]]
            if not arrived:
                continue
            grid[t] = dead_marker({k + 1 for k, _ in arrived})
            rule = "BOTWARS-MOVE-COLLIDE" if t in clash else "BOTWARS-MOVE-SAME-TARGET"
            for k, f in arrived:
                events.append({"type": "died", "rule": rule, "player": NAMES[k + 1],
                               "at": t, "from": f})
        if cfg.collide_kills:
            for t in sorted(halted):
                for k, f in sorted(entrants[t]):
                    grid[f] = DEAD[k + 1]
                    events.append({"type": "died", "rule": "BOTWARS-MOVE-COLLIDE",
                                   "player": NAMES[k + 1], "at": f})

    def battle_deaths(self, cfg: BotWarsConfig,
                      grid: bytes) -> list[tuple[int, tuple[int, ...]]]:
        """Step 2, BOTWARS-BATTLE: all battles decided at once on the post-move field.
        Returns (square, adjacent enemy squares) for every botlet that dies, by square."""
        nbrs, two = cfg.nbrs, BOT[2]
        contacts: dict[int, list[int]] = {}
        for sq in self.botlets(grid, 1):  # every fighting pair has exactly one p1 botlet
            for n in nbrs[sq]:
                if grid[n] == two:
                    contacts.setdefault(sq, []).append(n)
                    contacts.setdefault(n, []).append(sq)
        out = []
        for sq in sorted(contacts):
            near = contacts[sq]
            if rules.dies([(1, len(contacts[n])) for n in near], cfg.battle_every):
                out.append((sq, tuple(sorted(near))))
        return out

    def raze_grid(self, post_move: bytes, post_battle: bytes) -> bytes:
        """BOTWARS-TURN-ORDER: razing (step 3) looks at the field after the battles."""
        return post_battle

    def step_raze(self, cfg: BotWarsConfig, grid: bytes, razed: tuple[bool, bool],
                  events: list[Any]) -> tuple[bool, bool]:
        """Step 3, BOTWARS-RAZE."""
        out = razed
        for side in (1, 2):
            spawn = cfg.spawns[side]
            if not out[side - 1] and grid[spawn] == BOT[3 - side]:
                out = _pair(out, side, True)
                events.append({"type": "razed", "rule": "BOTWARS-RAZE", "player": NAMES[side],
                               "by": NAMES[3 - side], "at": spawn})
        return out

    def may_spawn(self, cfg: BotWarsConfig, energy: int, razed: bool) -> bool:
        """BOTWARS-SPAWN: enough energy and a spawn that is not razed."""
        return not razed and energy >= cfg.spawn_cost

    def step_spawn(self, cfg: BotWarsConfig, grid: bytearray, side: int, energy: list[int],
                   razed: tuple[bool, bool], events: list[Any]) -> None:
        """Step 4, BOTWARS-SPAWN."""
        if not self.may_spawn(cfg, energy[side - 1], razed[side - 1]):
            return
        spawn = cfg.spawns[side]
        if self.vacant(cfg, grid[spawn]):
            grid[spawn] = BOT[side]
            energy[side - 1] -= cfg.spawn_cost
            events.append({"type": "spawned", "rule": "BOTWARS-SPAWN", "player": NAMES[side],
                           "at": spawn})
        elif cfg.spend_anyway:
            energy[side - 1] -= cfg.spawn_cost
            events.append({"type": "spawn-wasted", "rule": "BOTWARS-SPAWN",
                           "player": NAMES[side], "at": spawn})

    def collect_neighbours(self, cfg: BotWarsConfig) -> tuple[tuple[int, ...], ...]:
        """BOTWARS-ENERGY-COLLECT: the squares that count as next to energy."""
        return cfg.nbrs8 if cfg.collect_diagonal else cfg.nbrs

    def energy_taker(self, cfg: BotWarsConfig, n1: int, n2: int) -> int:
        """BOTWARS-ENERGY-COLLECT and -CONTESTED: who gains an energy touched by n1 botlets
        of p1 and n2 of p2 (at least one of them positive); 0 for nobody."""
        if n1 and n2:
            if cfg.majority and n1 != n2:
                return 1 if n1 > n2 else 2
            return 0
        return 1 if n1 else 2

    def step_collect(self, cfg: BotWarsConfig, grid: bytearray, energy: list[int],
                     events: list[Any]) -> None:
        """Step 5: every energy square is judged on the same field (collection never moves a
        botlet, so judging them one after another is the same)."""
        near = self.collect_neighbours(cfg)
        one, two = BOT[1], BOT[2]
        sq = grid.find(ENERGY)
        while sq >= 0:
            n1 = n2 = 0
            for n in near[sq]:
                c = grid[n]
                n1 += c == one
                n2 += c == two
            if n1 or n2:
                grid[sq] = EMPTY
                taker = self.energy_taker(cfg, n1, n2)
                rule = "BOTWARS-ENERGY-CONTESTED" if n1 and n2 else "BOTWARS-ENERGY-COLLECT"
                if taker:
                    energy[taker - 1] += 1
                    events.append({"type": "energy-collected", "rule": rule,
                                   "player": NAMES[taker], "at": sq})
                else:
                    events.append({"type": "energy-removed", "rule": rule, "at": sq,
                                   "count": [n1, n2]})
            sq = grid.find(ENERGY, sq + 1)

    def energy_due(self, cfg: BotWarsConfig, turns: int) -> bool:
        """BOTWARS-ENERGY-SPAWN: is energy placed after turn `turns`?"""
        if cfg.energy_from_first:
            return turns >= 1 and (turns - 1) % cfg.interval == 0
        return turns >= 1 and turns % cfg.interval == 0

    def _place_energy(self, state: BotWarsState, s: Any) -> tuple[BotWarsState, list[Any]]:
        if not _is_int(s):
            raise IllegalAction("an energy outcome names a square")
        size = state.cfg.size
        events: list[Any] = []
        grid = state.grid
        if s == -1:
            if self.free_pairs(state):
                raise IllegalAction("a free mirror pair exists: energy must be placed")
        elif not self.free_pair(state, s):
            raise IllegalAction(f"squares {s} and {size - 1 - s} are not a free mirror pair")
        else:
            b = bytearray(grid)
            b[s] = b[size - 1 - s] = ENERGY
            grid = bytes(b)
            events.append({"type": "energy-spawned", "rule": "BOTWARS-ENERGY-SPAWN",
                           "at": [s, size - 1 - s]})
        return state._replace(grid=grid, phase=P1), events

    # --- the end -----------------------------------------------------------------------
    def turn_limit_reached(self, cfg: BotWarsConfig, turns: int) -> bool:
        """BOTWARS-END-TURNLIMIT."""
        return turns >= cfg.max_turns

    def turn_limit_winner(self, cfg: BotWarsConfig, counts: tuple[int, int],
                          energy: tuple[int, int]) -> int:
        """BOTWARS-WINNER: 1, 2, or 0 for a draw."""
        if counts[0] != counts[1]:
            return 1 if counts[0] > counts[1] else 2
        if cfg.tie_by_energy and energy[0] != energy[1]:
            return 1 if energy[0] > energy[1] else 2
        return 0

    def _check_end(self, state: BotWarsState, events: list[Any]) -> BotWarsState | None:
        counts = self.counts(state.grid)
        if 0 in counts:  # BOTWARS-END-ELIMINATION
            winner = 0 if counts == (0, 0) else (1 if counts[0] else 2)
            return self._finish(state, "elimination", winner, "BOTWARS-END-ELIMINATION", events)
        if self.turn_limit_reached(state.cfg, state.turns):
            winner = self.turn_limit_winner(state.cfg, counts, state.energy)
            return self._finish(state, "turn-limit", winner, "BOTWARS-END-TURNLIMIT", events)
        return None

    def _finish(self, state: BotWarsState, reason: str, winner: int, rule: str,
                events: list[Any]) -> BotWarsState:
        events.append({"type": "game-ended", "rule": rule, "endReason": reason,
                       "winner": NAMES[winner] or None, "botlets": list(self.counts(state.grid))})
        return state._replace(phase=OVER, winner=winner, end_reason=reason, pending=())

    def scores(self, state: BotWarsState) -> list[int]:
        return list(self.counts(state.grid))

    # --- canonical JSON ----------------------------------------------------------------
    def observe(self, state: BotWarsState) -> dict[str, Any]:
        cfg = state.cfg

        def player(side: int) -> dict[str, Any]:
            return {"energy": state.energy[side - 1], "spawn": cfg.spawns[side],
                    "spawnDisabled": state.razed[side - 1],
                    "disqualified": state.dq[side - 1]}

        return {
            "game": "botwars", "profile": state.profile.id, "rows": cfg.rows, "cols": cfg.cols,
            "grid": state.grid.decode("ascii"), "p1": player(1), "p2": player(2),
            "maxTurns": cfg.max_turns, "turnsElapsed": state.turns, "phase": state.phase,
            "pending": ([{"from": f, "to": t} for f, t in state.pending]
                        if state.phase == P2 else None),
            "winner": NAMES[state.winner] or None, "endReason": state.end_reason,
        }

    def bot_view(self, state: BotWarsState, player: str, game_id: str = "") -> dict[str, Any]:
        """The original protocol's request for `player`: what a bot sees (never p1's pending
        moves, so the turn stays simultaneous)."""
        full = self.observe(state)
        keep = ("rows", "cols", "grid", "maxTurns", "turnsElapsed", "winner")
        view: dict[str, Any] = {"gameId": game_id, **{k: full[k] for k in keep}}
        for name in ("p1", "p2"):
            view[name] = {k: full[name][k] for k in ("energy", "spawn", "spawnDisabled")}
        return {"state": view, "player": player}

    def load(self, profile: Profile, observed: Any) -> BotWarsState:
        return self._load(profile, observed, strict=True)

    def adopt(self, profile: Profile, observed: Any) -> BotWarsState:
        """An engine's state as it is, for the harness to go on from after a departure:
        any well-formed state of the profile's field, whether or not the rules could have
        reached it (energy on a turn it is not due, a start without botlets, a pending list
        the rules call invalid)."""
        return self._load(profile, observed, strict=False)

    def _load(self, profile: Profile, observed: Any, strict: bool) -> BotWarsState:
        problem = _schema_error("botwars-state", observed)
        if problem:
            raise BadState(f"not a Bot Wars state: {problem}")
        o = observed
        cfg = BotWarsConfig.of(profile)
        if (o["rows"], o["cols"]) != (cfg.rows, cfg.cols):
            raise BadState(f"the field is {o['rows']}x{o['cols']}, profile {profile.id!r} "
                           f"plays {cfg.rows}x{cfg.cols}")
        if len(o["grid"]) != cfg.size:
            raise BadState(f"grid has {len(o['grid'])} squares, expected {cfg.size}")
        for side in (1, 2):
            if o[NAMES[side]]["spawn"] != cfg.spawns[side]:
                raise BadState(f"{NAMES[side]}.spawn is {o[NAMES[side]]['spawn']}, the "
                               f"profile puts it at {cfg.spawns[side]}")
        if o["maxTurns"] != cfg.max_turns:
            raise BadState(f"maxTurns is {o['maxTurns']}, the profile says {cfg.max_turns}")
        turns, phase = o["turnsElapsed"], o["phase"]
        if strict and (turns > cfg.max_turns or (turns == cfg.max_turns and phase != OVER)):
            raise BadState(f"turnsElapsed {turns} is past the turn limit but the game goes on")
        reason, winner_name = o["endReason"], o["winner"]
        if (phase == OVER) != (reason is not None):
            raise BadState("endReason must be set exactly when the phase is 'over'")
        if winner_name is not None and phase != OVER:
            raise BadState("a winner is named but the game is not over")
        dq = (o["p1"]["disqualified"], o["p2"]["disqualified"])
        if (reason == "disqualified") != (sum(dq) == 1):
            raise BadState("exactly one bot is disqualified exactly when endReason is "
                           "'disqualified'")
        if reason == "disqualified" and winner_name != NAMES[1 if dq[1] else 2]:
            raise BadState("the bot that was not disqualified must be the winner")
        if (phase == P2) != (o["pending"] is not None):
            raise BadState("pending is a list in phase 'p2' and null otherwise")
        if strict and phase == ENERGY_STEP and not self.energy_due(cfg, turns):
            raise BadState(f"energy is not due after turn {turns}")
        grid = o["grid"].encode("ascii")
        state = BotWarsState(
            cfg, grid, phase, turns, (o["p1"]["energy"], o["p2"]["energy"]),
            (o["p1"]["spawnDisabled"], o["p2"]["spawnDisabled"]), dq, (),
            {None: 0, "p1": 1, "p2": 2}[winner_name], reason)
        if not strict:
            return state._replace(pending=() if o["pending"] is None else tuple(
                (m["from"], m["to"]) for m in o["pending"]))
        if turns == 0:
            start = self.initial(profile)
            if (grid, state.energy, state.razed) != (start.grid, start.energy, start.razed):
                raise BadState("with turnsElapsed 0 the field and energy must be the start's "
                               "(BOTWARS-FIRST-BOTLETS)")
        for side in (1, 2):
            if grid[cfg.spawns[side]] == BOT[3 - side] and not state.razed[side - 1]:
                raise BadState(f"a {NAMES[3 - side]} botlet stands on {NAMES[side]}'s spawn "
                               "but it is not razed")
        if phase == OVER and reason in ("elimination", "turn-limit"):
            counts = self.counts(grid)
            if (reason == "elimination") != (0 in counts):
                raise BadState(f"endReason {reason!r} does not match the botlets on the "
                               f"field {list(counts)}")
        if phase == P2:
            moves = tuple((m["from"], m["to"]) for m in o["pending"])
            checked = self.check_moves(state._replace(phase=P1), 1, moves)
            if checked.invalid or list(moves) != sorted(set(moves)) or checked.stays:
                raise BadState("pending must list valid moves of p1, sorted by from")
            state = state._replace(pending=moves)
        return state

    def action_to_json(self, state: BotWarsState, action: Action) -> dict[str, Any]:
        kind = action[0]
        if kind == "moves":
            return {"type": "moves", "moves": [{"from": f, "to": t} for f, t in action[1]]}
        if kind == "energy":
            s = action[1]
            return {"type": "energy", "at": None if s < 0 else [s, state.cfg.size - 1 - s]}
        return {"type": kind}

    def action_from_json(self, state: BotWarsState, data: Any) -> Action:
        problem = _schema_error("botwars-action", data)
        if problem:
            raise IllegalAction(f"not a Bot Wars action: {problem}")
        kind = data["type"]
        if kind == "moves":
            moves = []
            for m in data["moves"]:
                if not (_is_int(m["from"]) and _is_int(m["to"])):
                    raise IllegalAction("from and to must be integers")
                moves.append((m["from"], m["to"]))
            return ("moves", tuple(moves))
        if kind == "energy":
            at = data["at"]
            if at is None:
                return ("energy", -1)
            if not (at[0] < at[1] and at[0] + at[1] == state.cfg.size - 1):
                raise IllegalAction(f"energy squares {at} are not a mirror pair [s, "
                                    f"{state.cfg.size - 1} - s] with s the smaller")
            return ("energy", at[0])
        return (kind,)

    # --- bots' replies -----------------------------------------------------------------
    def parse_reply(self, text: str) -> tuple[Move, ...] | None:
        """BOTWARS-FORMAT-DQ: a reply's moves, or None when its format is invalid (numbers
        written as integers only: integer-literal)."""
        return self._parse_reply(text, float)

    def parse_reply_by_value(self, text: str) -> tuple[Move, ...] | None:
        """BOTWARS-FORMAT-DQ = integer-value: as parse_reply, but a whole number written
        with a fraction or an exponent (101.0, 1e2) is that integer."""
        return self._parse_reply(text, _whole)

    def _parse_reply(self, text: str,
                     parse_float: Callable[[str], int | float]) -> tuple[Move, ...] | None:
        try:
            data = json.loads(text, parse_float=parse_float)
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, list):
            return None
        moves: list[Move] = []
        for item in data:
            if not isinstance(item, dict):
                return None
            f, t = item.get("from"), item.get("to")
            if not (_is_int(f) and _is_int(t)):
                return None
            moves.append((f, t))
        return tuple(moves)

    def referee(self, state: BotWarsState, text: str) -> Action:
        """What a bot's raw reply amounts to: a well-formed list as sent (apply then ignores
        its invalid moves, BOTWARS-MOVE-INVALID), or bad-format (BOTWARS-FORMAT-DQ)."""
        if state.side == 0:
            raise IllegalAction("no bot is asked to move now")
        moves = (self.parse_reply_by_value(text) if state.cfg.number_values
                 else self.parse_reply(text))
        return BAD_FORMAT if moves is None else ("moves", moves)
