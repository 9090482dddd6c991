"""Oracles for battles and the dead: BOTWARS-BATTLE, BOTWARS-DEAD-MARKERS."""

from __future__ import annotations

from functools import lru_cache

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import steps
from gamecert.spec import Profile


def battle_check(t: Transition, profile: Profile) -> Verdict:
    """The botlets that die in step 2 are exactly those the battle rule names, decided at
    once on the field that step 1 left (as the engine reports step 1)."""
    r = m.readings(profile)
    step = steps.step(t, r)
    if not step.resolution:
        return NA
    field = step.moved  # the field after step 1, shared with the other oracles of the turn
    reported = step.of("died", "BOTWARS-BATTLE")
    foes = step.foes  # botlets next to enemies: none is `in_contact` false
    if not foes and not reported:
        return NA
    want = m.deaths(r, foes)
    got = {e["at"]: e for e in reported}
    problems = []
    if set(got) != set(want):
        extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
        if missing:
            problems.append(f"botlets on {missing} lose a fight and must die")
        if extra:
            problems.append(f"botlets on {extra} die but lose no fight")
    for sq in sorted(set(got) & set(want)):
        e = got[sq]
        side = m.SIDE[e["player"]]
        if field[sq] != m.LIVE[side]:
            problems.append(f"square {sq} held no {e['player']} botlet after the moves")
        if e["enemies"] != want[sq] or e["enemyCount"] != len(want[sq]):
            problems.append(f"the botlet on {sq} faced {want[sq]}, the engine says "
                            f"{e['enemies']} ({e['enemyCount']})")
        if t.after["grid"][sq] != m.DEAD[side] and sq not in _covered(t, r):
            problems.append(f"the botlet that died on {sq} is not marked dead after the turn")
    return Violation("; ".join(problems)) if problems else OK


def in_contact(r: m.Readings, field: str) -> bool:
    """Does a live botlet stand next to an enemy one on `field`? (The live squares by the
    string's own search, each asked about its neighbours.)"""
    nbrs = r.neighbours()
    return any(field[n] == "2" for sq in m.where(field, "1") for n in nbrs[sq]) or any(
        field[n] == "1" for sq in m.where(field, "2") for n in nbrs[sq])


def plain_in_contact(r: m.Readings, field: str | list[str]) -> bool:
    """`in_contact` by a scan of every square (the plain computation it stands in for)."""
    return any(field[n] == ("2" if c == "1" else "1")
               for sq, c in enumerate(field) if c in "12" for n in r.adjacent(sq))


def _covered(t: Transition, r: m.Readings) -> set[int]:
    """Squares whose marker a new botlet or energy may cover in this transition (the empty
    reading of BOTWARS-DEAD-MARKERS; whether it should is BOTWARS-SPAWN's and
    BOTWARS-ENERGY-SPAWN's to judge)."""
    if not r.markers_empty:
        return set()
    out = {e["at"] for e in steps.step(t, r).of("spawned")}
    at = t.action.get("at") if t.action.get("type") == "energy" else None
    if isinstance(at, list):
        out |= {sq for sq in at if isinstance(sq, int)}
    return out


def _markers(grid: str | list[str]) -> dict[int, str]:
    """The dead markers on a field: square -> marker (by the string's own search when the
    field is a string; only read the answer)."""
    if type(grid) is str:
        return _marker_squares(grid)
    return {i: c for i, c in enumerate(grid) if c in "xX"}


@lru_cache(maxsize=16)  # a state's grid is this step's after and the next step's before
def _marker_squares(grid: str) -> dict[int, str]:
    return {i: grid[i] for i in sorted(m.where(grid, "x") + m.where(grid, "X"))}


def markers_check(t: Transition, profile: Profile) -> Verdict:
    """On a resolution the markers are exactly this turn's dead (last turn's are cleared);
    any other transition leaves them alone. Under the empty reading a marker may be covered
    by a botlet spawned on it or energy placed on it, and then shows no more."""
    r = m.readings(profile)
    before, after = t.before["grid"], t.after["grid"]
    deaths = steps.step(t, r).of("died")
    old = set(_markers(before))
    new = _markers(after)
    if not old and not new and not deaths:
        return NA
    covered = _covered(t, r)
    if not m.is_resolution(t.before, t.action, r):
        same = {i: before[i] for i in old if i not in covered or after[i] in "xX"}
        if new != same:
            return Violation("dead markers changed outside the carrying out of a turn")
        return OK
    want = {sq: c for sq, c in m.death_marks(deaths).items()
            if sq not in covered or after[sq] in "xX"}
    if new != want:
        return Violation(f"dead markers after the turn are {sorted(new.items())}, this turn's "
                         f"dead are {sorted(want.items())}")
    return OK
