"""Oracles for energy: BOTWARS-ENERGY-COLLECT, -CONTESTED, -SPAWN."""

from __future__ import annotations

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation
from gamecert.oracles.botwars import model as m
from gamecert.spec import Profile

COLLECTION = ("BOTWARS-ENERGY-COLLECT", "BOTWARS-ENERGY-CONTESTED")


def _collection(t: Transition, profile: Profile, contested: bool) -> Verdict:
    """Step 5 on the field that step 4 left: each energy touched by one side (COLLECT) or by
    both (CONTESTED) ends as the rules say; untouched energy stays."""
    r = m.readings(profile)
    if not m.is_resolution(t.before, t.action, r):
        return NA
    rule = "BOTWARS-ENERGY-CONTESTED" if contested else "BOTWARS-ENERGY-COLLECT"
    field = m.after_spawns(t.before, t.events)
    mine = [e for e in t.events if e["rule"] == rule]
    judged = []
    touched = set()
    for sq, n1, n2 in _touching(r, field):
        if n1 or n2:
            touched.add(sq)
        if bool(n1 and n2) == contested and (n1 or n2):  # n1 and n2 is a count, not a bool
            judged.append((sq, n1, n2))
    # COLLECT also applies where the adjacency question arises at all: a botlet diagonal
    # to energy (adjacent under one reading, not under the other)
    close = not contested and any(field[n] in "12" for sq in m.squares(field, "*")
                                  for n in r.adjacent(sq, True))
    if not judged and not mine and not close:
        return NA
    problems = []
    # what the engine did with each energy in step 5, under either rule: a square this rule
    # judges is its own whatever rule the engine names, and one the other rule judges is not
    handled = {e["at"]: e for e in t.events if e["rule"] in COLLECTION}
    said = {e["at"]: e for e in mine}
    for sq, n1, n2 in judged:
        if contested:
            winner = (0 if not r.majority or n1 == n2 else 1 if n1 > n2 else 2)
        else:
            winner = 1 if n1 else 2
        said.pop(sq, None)
        e = handled.get(sq)
        got = None if e is None else (e["player"] if e["type"] == "energy-collected" else "nobody")
        want = m.NAME[winner] if winner else "nobody"
        if got != want:
            problems.append(f"energy on {sq} touched by {n1} p1 and {n2} p2 botlets goes to "
                            f"{want}, the engine: {got or 'left on the field'}")
        if t.after["grid"][sq] == "*":
            problems.append(f"energy on {sq} should be gone after step 5")
    said = {sq: e for sq, e in said.items() if sq not in touched}
    if said:
        problems.append(f"energy on {sorted(said)} handled under {rule} without cause")
    if not contested:
        # how many botlets the engine says touch an energy is this rule's adjacency too
        counts = {sq: [n1, n2] for sq, n1, n2 in _touching(r, field)}
        for sq, e in sorted(handled.items()):
            if "count" in e and sq in counts and e["count"] != counts[sq]:
                problems.append(f"energy on {sq} is touched by {counts[sq]} botlets of p1 and "
                                f"p2 ({'eight' if r.diagonal_energy else 'four'} neighbours), "
                                f"the engine counts {e['count']}")
        for sq in m.squares(field, "*"):
            near = r.adjacent(sq, r.diagonal_energy)
            if not any(field[n] in "12" for n in near) and t.after["grid"][sq] != "*":
                problems.append(f"untouched energy on {sq} vanished")
    return Violation("; ".join(problems)) if problems else OK


def _touching(r: m.Readings, field: list[str]) -> list[tuple[int, int, int]]:
    """(energy square, p1 botlets, p2 botlets) next to it, by the profile's adjacency."""
    out = []
    for sq in m.squares(field, "*"):
        near = r.adjacent(sq, r.diagonal_energy)
        out.append((sq, sum(field[n] == "1" for n in near), sum(field[n] == "2" for n in near)))
    return out


def collect_check(t: Transition, profile: Profile) -> Verdict:
    return _collection(t, profile, contested=False)


def contested_check(t: Transition, profile: Profile) -> Verdict:
    return _collection(t, profile, contested=True)


def energy_spawn_check(t: Transition, profile: Profile) -> Verdict:
    """When energy is due it is placed (phase energy), and a placement is a free mirror
    pair, the only change to the field."""
    r = m.readings(profile)
    b, a = t.before, t.after
    if b["phase"] == "energy":
        return _placement(t, r)
    if not m.is_resolution(b, t.action, r):
        return NA
    # every turn carried out decides whether energy is due: the rule applies to each
    due = r.energy_due(a["turnsElapsed"]) and a["phase"] != "over"
    if due != (a["phase"] == "energy"):
        return Violation(f"after turn {a['turnsElapsed']} energy is "
                         f"{'' if due else 'not '}due, the engine goes to phase {a['phase']!r}")
    return OK


def _free(r: m.Readings, grid: str, sq: int) -> bool:
    return grid[sq] == "." and sq not in r.spawn.values()


def _placement(t: Transition, r: m.Readings) -> Verdict:
    b, a = t.before["grid"], t.after["grid"]
    at = t.action.get("at")
    pairs = [s for s in range(r.size // 2) if _free(r, b, s) and _free(r, b, r.size - 1 - s)]
    if at is None:
        if pairs:
            return Violation(f"{len(pairs)} free mirror pairs exist, yet no energy was placed")
        return OK if a == b else Violation("the field changed though no energy was placed")
    s, s2 = at
    if s not in pairs or s2 != r.size - 1 - s:
        return Violation(f"energy placed on {at}, not a free mirror pair")
    want = list(b)
    want[s] = want[s2] = "*"
    if a != "".join(want):
        return Violation(f"placing energy on {at} changed other squares")
    return OK


def energy_spawn_judge(state: object, action: object, accepted: bool,
                       profile: Profile) -> Verdict:
    """An energy outcome is accepted exactly when it is a free mirror pair (or none exists
    and the outcome is none)."""
    if not (isinstance(state, dict) and isinstance(action, dict) and m.well_formed(action)):
        return NA
    if state.get("phase") != "energy" or action.get("type") != "energy":
        return NA
    r = m.readings(profile)
    grid = state["grid"]
    pairs = [s for s in range(r.size // 2) if _free(r, grid, s) and _free(r, grid, r.size - 1 - s)]
    at = action.get("at")
    if at is None:
        ok = not pairs
    else:
        ok = (isinstance(at, list) and len(at) == 2 and at[0] in pairs
              and at[1] == r.size - 1 - at[0])
    if ok == accepted:
        return OK
    return Violation(f"energy outcome {at} should be {'accepted' if ok else 'refused'}")
