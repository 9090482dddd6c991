"""The rules' account of one turn, step by step, from the field at its start and the moves
each bot's list carries out: the field after the moves (step 1, with its collisions), after
the battles, the razed spawns, the spawns, the energy collected, the end.

Written from the catalogue's texts, like `model` (squares as ints, the field as a string),
never from the reference engine, and it reads no events: it is what the state-only forms of
the oracles (`bare`) compare an engine's state after a turn with, where that engine sends
no events of its own. `collide` and `crowd` name another handling of a collision or of a
crowd of one bot's botlets, so that a state-only form can ask whether another handling
gives what an engine did.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gamecert.oracles.botwars import model as m

Moves = tuple[tuple[int, int], ...]
# how botlets of both bots moving onto one square are handled (BOTWARS-MOVE-COLLIDE's
# readings, and two departures: one bot's botlet enters, the other's stays)
COLLIDE_WAYS = ("bounce", "both-die", "die-there", "p1-enters", "p2-enters")


@dataclass(frozen=True)
class Turn:
    """The rules' account of one turn (see the module docstring)."""

    start: str  # the field at the start of the turn, last turn's markers cleared
    lists: tuple[Moves, Moves]  # the moves carried into step 1, p1's then p2's
    moved: str  # after step 1: the moves, and the deaths of step 1 as markers
    step1_dead: frozenset[int]  # squares holding a marker of step 1
    gathered: tuple[int, int]  # energy gathered by moving onto it (BOTWARS-MOVE-ENERGY)
    battle_dead: dict[int, list[int]]  # step 2: square -> the enemies it faced
    battled: str  # after step 2
    razed: tuple[bool, bool]  # step 3, spawnDisabled after it
    spawned: tuple[bool, bool]  # step 4: a botlet added for p1, for p2
    paid: tuple[int, int]  # step 4: energy spent (a botlet, or spent anyway)
    after_spawn: str  # after step 4
    energy_at_spawn: tuple[int, int]  # energy when step 4 decides (before paying)
    fate: dict[int, tuple[int, int, int]]  # step 5: energy square -> (n1, n2, taker or 0)
    collected: str  # after step 5
    energy: tuple[int, int]  # after step 5

    def side_energy(self, side: int) -> int:
        return self.energy[side - 1]


def _other(side: int) -> int:
    return 3 - side


def step_one(r: m.Readings, start: str, lists: tuple[Moves, Moves],
             collide: str | None = None, crowd_dies: bool | None = None
             ) -> tuple[str, frozenset[int], tuple[int, int]]:
    """Step 1 (BOTWARS-MOVE and its open points, -COLLIDE, -SAME-TARGET at die-there,
    -MOVE-ENERGY at gather) on `start`: the field after it, the squares of its markers,
    and the energy each bot gathered. `crowd_dies` False: a crowd of one bot's botlets
    enters its square as one (a departure a state-only form asks about)."""
    way = collide or ("die-there" if r.collide_there else
                      "both-die" if r.collide_kills else "bounce")
    # only die-there lets one list hold a crowd; a pending list an engine carried (which
    # the reference takes on as it stands) is carried out the same way
    crowds = True if crowd_dies is None else crowd_dies
    into: dict[int, list[tuple[int, int]]] = {}  # square -> [(side, from)]
    for k, moves in enumerate(lists, 1):
        for f, t in moves:
            into.setdefault(t, []).append((k, f))
    clash = {t for t, group in into.items() if len({k for k, _ in group}) == 2}
    # a crowd of one bot (only under die-there may one list hold one)
    there = {t for t, group in into.items() if len(group) > 1 and t not in clash and crowds}
    stopped: set[tuple[int, int]] = set()  # (side, from) that stay where they stand
    killed_in_place: set[tuple[int, int]] = set()  # both-die
    if way == "die-there":
        there |= clash
    elif way in ("p1-enters", "p2-enters"):
        winner = 1 if way == "p1-enters" else 2
        for t in clash:
            stopped |= {(k, f) for k, f in into[t] if k != winner}
    else:
        for t in clash:
            stopped |= set(into[t])
            if way == "both-die":
                killed_in_place |= set(into[t])
    # botlets following a stopped botlet into the square it was to leave stop too
    grow = True
    while grow:
        grow = False
        for k, moves in enumerate(lists, 1):
            for f, t in moves:
                if (k, t) in stopped and (k, f) not in stopped:
                    stopped.add((k, f))
                    grow = True
    going = [(k, f, t) for k, moves in enumerate(lists, 1) for f, t in moves
             if (k, f) not in stopped]
    field = list(start)
    for _, f, _ in going:
        field[f] = "."
    gathered = [0, 0]
    for k, _, t in going:
        if field[t] == "*" and t not in there:
            gathered[k - 1] += 1
        field[t] = m.LIVE[k]
    marks: set[int] = set()
    for t in there:
        arrived = {k for k, f in into[t] if (k, f) not in stopped}
        if arrived:
            field[t] = m.DEAD[next(iter(arrived))] if len(arrived) == 1 else m.DEAD[1]
            marks.add(t)
    for k, f in killed_in_place:
        field[f] = m.DEAD[k]
        marks.add(f)
    return "".join(field), frozenset(marks), (gathered[0], gathered[1])


def battle(r: m.Readings, moved: str) -> tuple[dict[int, list[int]], str]:
    """Step 2 (BOTWARS-BATTLE) on the field after step 1: the dead, and the field."""
    dead = m.battle_deaths(r, moved)
    field = list(moved)
    for sq in dead:
        field[sq] = m.DEAD[1 if moved[sq] == "1" else 2]
    return dead, "".join(field)


def raze(r: m.Readings, battled: str, razed: tuple[bool, bool]) -> tuple[bool, bool]:
    """Step 3 (BOTWARS-RAZE): a live enemy on a spawn after the battles razes it."""
    return (razed[0] or battled[r.spawn[1]] == "2", razed[1] or battled[r.spawn[2]] == "1")


def spawn(r: m.Readings, battled: str, razed: tuple[bool, bool], energy: tuple[int, int]
          ) -> tuple[str, tuple[bool, bool], tuple[int, int]]:
    """Step 4 (BOTWARS-SPAWN): the field, which bots got a botlet, and what each paid."""
    field = list(battled)
    spawned, paid = [False, False], [0, 0]
    for k in (1, 2):
        if razed[k - 1] or energy[k - 1] < r.cost:
            continue
        sq = r.spawn[k]
        if r.vacant(field[sq]):
            field[sq] = m.LIVE[k]
            spawned[k - 1] = True
            paid[k - 1] = r.cost
        elif r.spend_anyway:
            paid[k - 1] = r.cost
    return "".join(field), (spawned[0], spawned[1]), (paid[0], paid[1])


def touching(r: m.Readings, field: str, square: int) -> tuple[int, int]:
    """How many live botlets of p1 and of p2 touch energy on `square` (BOTWARS-ENERGY-COLLECT's
    adjacency)."""
    near = r.neighbours(r.diagonal_energy)[square]
    return sum(field[n] == "1" for n in near), sum(field[n] == "2" for n in near)


def taker(r: m.Readings, n1: int, n2: int) -> int:
    """Who gains energy touched by n1 botlets of p1 and n2 of p2 (1, 2, or 0: nobody)."""
    if n1 and n2:
        if r.majority and n1 != n2:
            return 1 if n1 > n2 else 2
        return 0
    return 1 if n1 else 2 if n2 else 0


def collect(r: m.Readings, field: str, energy: tuple[int, int]
            ) -> tuple[dict[int, tuple[int, int, int]], str, tuple[int, int]]:
    """Step 5 (BOTWARS-ENERGY-COLLECT, -CONTESTED), every energy judged on one field."""
    fate: dict[int, tuple[int, int, int]] = {}
    out = list(field)
    gained = list(energy)
    for sq in m.where(field, "*"):
        n1, n2 = touching(r, field, sq)
        who = taker(r, n1, n2)
        fate[sq] = (n1, n2, who)
        if n1 or n2:
            out[sq] = "."
            if who:
                gained[who - 1] += 1
    return fate, "".join(out), (gained[0], gained[1])


def carry_out(r: m.Readings, before_grid: str, energy: tuple[int, int],
              razed: tuple[bool, bool], lists: tuple[Moves, Moves],
              collide: str | None = None, crowd_dies: bool | None = None) -> Turn:
    """The rules' account of a turn whose lists carry `lists` into step 1."""
    return _carry_out(r, before_grid, energy, razed, lists, collide, crowd_dies)


@lru_cache(maxsize=64)
def _carry_out(r: m.Readings, before_grid: str, energy: tuple[int, int],
               razed: tuple[bool, bool], lists: tuple[Moves, Moves], collide: str | None,
               crowd_dies: bool | None) -> Turn:
    start = "".join(m.cleared_view(before_grid))
    moved, marks, gathered = step_one(r, start, lists, collide, crowd_dies)
    dead, battled = battle(r, moved)
    razed_now = raze(r, battled, razed)
    at_spawn = (energy[0] + gathered[0], energy[1] + gathered[1])
    after_spawn, spawned, paid = spawn(r, battled, razed_now, at_spawn)
    fate, collected, gained = collect(r, after_spawn,
                                      (at_spawn[0] - paid[0], at_spawn[1] - paid[1]))
    return Turn(start, lists, moved, marks, gathered, dead, battled, razed_now, spawned, paid,
                after_spawn, at_spawn, fate, collected, gained)


def moves_tuple(moves: Any) -> Moves:
    """A list of (from, to) pairs as the sorted tuple `carry_out` takes."""
    return tuple(sorted((f, t) for f, t in moves))


__all__ = ["COLLIDE_WAYS", "Turn", "battle", "carry_out", "collect", "moves_tuple", "raze",
           "spawn", "step_one", "taker", "touching"]
