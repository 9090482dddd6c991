"""Oracles for energy: BOTWARS-ENERGY-COLLECT, -CONTESTED, -SPAWN, -SQUARES.

A placement that puts energy on a spawn point, or that leaves energy out while only a pair
with a spawn point is free, is BOTWARS-ENERGY-SQUARES's to judge; every other placement is
BOTWARS-ENERGY-SPAWN's."""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import compress

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, cause
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import steps
from gamecert.spec import Profile

COLLECTION = ("BOTWARS-ENERGY-COLLECT", "BOTWARS-ENERGY-CONTESTED")


def _collection(t: Transition, profile: Profile, contested: bool) -> Verdict:
    """Step 5 on the field that step 4 left: each energy touched by one side (COLLECT) or by
    both (CONTESTED) ends as the rules say; untouched energy stays."""
    r = m.readings(profile)
    step = steps.step(t, r)  # the field and who touches each energy: shared by both rules
    if not step.resolution:
        return NA
    rule = "BOTWARS-ENERGY-CONTESTED" if contested else "BOTWARS-ENERGY-COLLECT"
    touching = step.touching  # (square, p1 and p2 botlets next to it) on the field after step 4
    mine = step.naming(rule)
    judged = []
    touched = set()
    for sq, n1, n2 in step.touched:  # the energy with a botlet next to it (n1 or n2)
        touched.add(sq)
        if bool(n1 and n2) == contested:  # n1 and n2 is a count, not a bool
            judged.append((sq, n1, n2))
    # COLLECT also applies where the adjacency question arises at all: a botlet diagonal
    # to energy (adjacent under one reading, not under the other)
    close = not contested and step.botlet_by_energy
    if not judged and not mine and not close:
        return NA
    problems = []
    # what the engine did with each energy in step 5, under either rule: a square this rule
    # judges is its own whatever rule the engine names, and one the other rule judges is not
    handled = _handled(step)
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
        counts = {sq: [n1, n2] for sq, n1, n2 in touching} if handled else {}
        for sq, e in sorted(handled.items()):
            if "count" in e and sq in counts and e["count"] != counts[sq]:
                problems.append(f"energy on {sq} is touched by {counts[sq]} botlets of p1 and "
                                f"p2 ({'eight' if r.diagonal_energy else 'four'} neighbours), "
                                f"the engine counts {e['count']}")
        untouched = step.untouched
        if untouched:  # the state after is read only where there is energy
            after = t.after["grid"]
            for sq in untouched:
                if after[sq] != "*":
                    problems.append(f"untouched energy on {sq} vanished")
    return Violation("; ".join(problems)) if problems else OK


def _handled(step: steps.Step) -> dict[m.JSON, m.JSON]:
    """`{e["at"]: e for e in t.events if e["rule"] in COLLECTION}` (a later event on a
    square wins): from the events by rule when only one of the two rules has any."""
    index = step.by_rule
    if index is not None:
        present = [rule for rule in COLLECTION if rule in index]
        if not present:
            return {}
        if len(present) == 1:
            return {e["at"]: e for e in index[present[0]]}
    return {e["at"]: e for e in step.t.events if e["rule"] in COLLECTION}


def _touching(r: m.Readings, field: list[str]) -> list[tuple[int, int, int]]:
    """(energy square, p1 botlets, p2 botlets) next to it, by the profile's adjacency (the
    plain computation `steps.Step.touching` shares)."""
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
    """When energy is due it is placed (phase energy; or, for an engine that draws for
    itself, in the same reply as the turn: a new mirror pair on the field), and a placement
    is a free mirror pair, the only change to the field."""
    r = m.readings(profile)
    b, a = t.before, t.after
    if b["phase"] == "energy":
        return _placement(t, r)
    turn = _turn_end(t, r)
    if turn is None:
        return NA
    # every turn carried out decides whether energy is due: the rule applies to each
    due, at, field = turn
    turns = a["turnsElapsed"]
    if a["phase"] == "energy" or (a["phase"] != "p1" and at is None):
        if due != (a["phase"] == "energy"):
            return cause(_schedule(r, turns, not due),
                         f"after turn {turns} energy is {'' if due else 'not '}"
                         f"due, the engine goes to phase {a['phase']!r}")
        return OK
    if at is None:  # follow mode, nothing placed: due only when no pair is free
        pairs = _pairs(r, field)
        if due and pairs and not all(_on_spawn(r, s) for s in pairs):
            return cause(_schedule(r, turns, False), f"after turn {turns} energy is due "
                         f"and {len(pairs)} free mirror pairs exist, yet none was placed")
        return OK
    if not due:
        return cause(_schedule(r, turns, True), f"energy placed on {list(at)} after turn "
                     f"{turns}, when none is due")
    if _on_spawn(r, at[0]):
        return OK  # on a spawn point: BOTWARS-ENERGY-SQUARES's question
    if at[0] not in _pairs(r, field):
        return cause("pair", f"energy placed on {list(at)}, not a free mirror pair")
    return OK


def _schedule(r: m.Readings, turns: int, placed: bool) -> str:
    """The kind of an energy schedule's departure: one kind, whether energy is placed
    where none is due or missing where it is (one schedule read otherwise does both, on
    different turns: one cause, not two)."""
    return "schedule"


def _turn_end(t: Transition, r: m.Readings
              ) -> tuple[bool, tuple[int, int] | None, str] | None:
    """For a turn carried out: whether energy is due after it, the mirror pair the state
    after shows placed (energy the state before had not: an engine that draws for itself
    places it in the turn's reply; None: none, or not one pair), and the field before that
    placement. None for any other step."""
    b, a = t.before, t.after
    if not m.is_resolution(b, t.action, r) or a["turnsElapsed"] != b["turnsElapsed"] + 1:
        return None
    due = r.energy_due(a["turnsElapsed"]) and a["phase"] != "over"
    grid = a["grid"]
    pair = m.placed_pair(b["grid"], grid) if type(grid) is str else None
    if pair is None:
        return due, None, grid
    low, high = pair
    field = grid[:low] + "." + grid[low + 1:high] + "." + grid[high + 1:]
    return due, pair, field


def _pairs(r: m.Readings, grid: str) -> list[int]:
    """The smaller squares s of the mirror pairs {s, size - 1 - s} free for energy (only
    read the list: for a grid string it is shared, see `_free_pairs`)."""
    if type(grid) is str and len(grid) == r.size:
        return _free_pairs(r, grid)
    return _plain_pairs(r, grid)


def _plain_pairs(r: m.Readings, grid: str) -> list[int]:
    return [s for s in range(r.size // 2)
            if r.energy_free(grid, s) and r.energy_free(grid, r.size - 1 - s)]


_VACANT = {False: frozenset("."), True: frozenset(".xX")}  # Readings.vacant, by markers_empty


@lru_cache(maxsize=16)
def _free_pairs(r: m.Readings, grid: str) -> list[int]:
    """`_plain_pairs` of a field string, by the profile's table of pairs that may take
    energy at all (each placement step asks two oracles and the judges about one field).
    An ASCII field is read a byte a square: its first half and its mirrored second half
    become bytes 1 (vacant) or 0, and the pairs whose two bytes and whose candidacy are
    all 1 are picked at once."""
    if not grid.isascii():
        vacant = _VACANT[r.markers_empty]
        last = r.size - 1
        return [s for s in _pair_candidates(r) if grid[s] in vacant and grid[last - s] in vacant]
    return _picked_pairs(r, grid, _candidate_mask(r))


def _picked_pairs(r: m.Readings, grid: str, mask: int) -> list[int]:
    """The pairs of an ASCII field of the profile's size whose two squares are vacant and
    whose byte in `mask` is 1."""
    half = r.size // 2
    table = _VACANT_BYTES[r.markers_empty]
    raw = grid.encode("ascii")
    near = int.from_bytes(raw[:half].translate(table), "big")
    far = int.from_bytes(raw[::-1][:half].translate(table), "big")
    free = (near & far & mask).to_bytes(half, "big")
    return list(compress(range(half), free))


# bytes.translate: a vacant square's byte to 1, any other to 0 (by markers_empty)
_VACANT_BYTES = {empty: bytes(1 if chr(b) in _VACANT[empty] else 0 for b in range(256))
                 for empty in (False, True)}


@cache  # readings hash by identity
def _candidate_mask(r: m.Readings, off_spawn: bool = False) -> int:
    """The pairs of `_pair_candidates` (those without a spawn point: `off_spawn`) as bytes
    1 among 0s (one per pair), read as a number."""
    half, chosen = r.size // 2, set(_pair_candidates(r))
    if off_spawn:
        chosen -= _spawn_pairs(r)
    return int.from_bytes(bytes(1 if s in chosen else 0 for s in range(half)), "big")




@cache  # readings hash by identity
def _pair_candidates(r: m.Readings) -> tuple[int, ...]:
    """The pairs whose squares `Readings.energy_free` allows when vacant (all, or those
    without a spawn point)."""
    return tuple(s for s in range(r.size // 2) if r.energy_on_spawn or not (
        r.touches_spawn(s) or r.touches_spawn(r.size - 1 - s)))


def _pairs_off_spawn(r: m.Readings, grid: str) -> list[int]:
    """The free pairs without a spawn point (only read the list: for a grid string it is
    shared, see `_free_pairs`)."""
    if type(grid) is str and len(grid) == r.size:
        return _free_pairs_off_spawn(r, grid)
    return [s for s in _pairs(r, grid) if not _on_spawn(r, s)]


@lru_cache(maxsize=16)
def _free_pairs_off_spawn(r: m.Readings, grid: str) -> list[int]:
    if not grid.isascii():
        on_spawn = _spawn_pairs(r)
        return [s for s in _free_pairs(r, grid) if s not in on_spawn]
    return _picked_pairs(r, grid, _candidate_mask(r, off_spawn=True))


@cache  # readings hash by identity
def _spawn_pairs(r: m.Readings) -> frozenset[int]:
    """The pairs (by their smaller square) that `_on_spawn` names."""
    return frozenset(s for s in range(r.size // 2) if _on_spawn(r, s))


def _on_spawn(r: m.Readings, s: int) -> bool:
    return r.touches_spawn(s) or r.touches_spawn(r.size - 1 - s)


def _squares_question(r: m.Readings, grid: str, at: object) -> bool:
    """Is this placement (or none) a matter of BOTWARS-ENERGY-SQUARES: energy on a spawn
    point, or none placed while the only free pairs hold a spawn point?"""
    if isinstance(at, list) and len(at) == 2 and all(isinstance(v, int) for v in at):
        return _on_spawn(r, min(at))
    pairs = _pairs(r, grid)
    return at is None and bool(pairs) and all(_on_spawn(r, s) for s in pairs)


def _placement(t: Transition, r: m.Readings) -> Verdict:
    b, a = t.before["grid"], t.after["grid"]
    at = t.action.get("at")
    if _squares_question(r, b, at):
        return NA
    pairs = _pairs_off_spawn(r, b)
    if at is None:
        if pairs:
            return Violation(f"{len(pairs)} free mirror pairs exist, yet no energy was placed")
        return OK if a == b else Violation("the field changed though no energy was placed")
    s, s2 = at
    if s not in pairs or s2 != r.size - 1 - s:
        return Violation(f"energy placed on {at}, not a free mirror pair")
    if a != _placed(b, s, s2):
        return Violation(f"placing energy on {at} changed other squares")
    return OK


def _placed(b: str, s: int, s2: int) -> str:
    """The field `b` with energy on squares `s` and `s2` (s < s2, both on it: a free pair),
    by slicing the string where it can (`_plain_placed` otherwise)."""
    if type(b) is str and type(s) is int and type(s2) is int and 0 <= s < s2 < len(b):
        return b[:s] + "*" + b[s + 1:s2] + "*" + b[s2 + 1:]
    return _plain_placed(b, s, s2)


def _plain_placed(b: str, s: int, s2: int) -> str:
    want = list(b)
    want[s] = want[s2] = "*"
    return "".join(want)


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
    at = action.get("at")
    if _squares_question(r, grid, at):
        return NA
    pairs = _pairs(r, grid)
    if at is None:
        ok = not pairs
    else:
        ok = (isinstance(at, list) and len(at) == 2 and at[0] in pairs
              and at[1] == r.size - 1 - at[0])
    if ok == accepted:
        return OK
    return Violation(f"energy outcome {at} should be {'accepted' if ok else 'refused'}")


# --- BOTWARS-ENERGY-SQUARES ----------------------------------------------------------------
def _spawn_pair(r: m.Readings, grid: str) -> list[int]:
    """The mirror pairs holding a spawn point whose two squares are empty: where the
    question of this rule arises."""
    return [s for s in {min(sq, r.size - 1 - sq) for sq in r.spawn.values()}
            if r.vacant(grid[s]) and r.vacant(grid[r.size - 1 - s])]


def energy_squares_check(t: Transition, profile: Profile) -> Verdict:
    """A placement made while a pair with a spawn point is empty: on that pair only under
    any-empty (and then exactly there); none placed only when no pair is free. For an
    engine that draws for itself, the placement in a turn's reply (`_turn_end`)."""
    r = m.readings(profile)
    if t.before["phase"] != "energy" or t.action.get("type") != "energy":
        return _squares_in_turn(t, r)
    b, a = t.before["grid"], t.after["grid"]
    at = t.action.get("at")
    if not _spawn_pair(r, b) and not _squares_question(r, b, at):
        return NA
    if at is None:
        if _squares_question(r, b, at):
            return Violation("a pair holding a spawn point is free for energy (any-empty), "
                             "yet no energy was placed")
        return OK
    s = min(at)
    if not _on_spawn(r, s):
        return OK  # placed elsewhere: BOTWARS-ENERGY-SPAWN judges the pair itself
    if not r.energy_on_spawn:
        return Violation(f"energy placed on {at}, a spawn point (not-on-spawn)")
    if s not in _pairs(r, b) or max(at) != r.size - 1 - s:
        return Violation(f"energy placed on {at}, not an empty mirror pair")
    want = list(b)
    want[s] = want[r.size - 1 - s] = "*"
    if a != "".join(want):
        return Violation(f"placing energy on {at} changed other squares")
    return OK


def _squares_in_turn(t: Transition, r: m.Readings) -> Verdict:
    """`energy_squares_check` on a turn whose reply holds the energy placed after it."""
    if t.after["phase"] != "p1":
        return NA
    turn = _turn_end(t, r)
    if turn is None:
        return NA
    due, at, field = turn
    if not due or not _spawn_pair(r, field):
        return NA
    if at is None:
        pairs = _pairs(r, field)
        if pairs and all(_on_spawn(r, s) for s in pairs):
            return cause("none", "a pair holding a spawn point is free for energy "
                         "(any-empty), yet no energy was placed")
        return OK
    if not _on_spawn(r, at[0]):
        return OK  # placed elsewhere: BOTWARS-ENERGY-SPAWN judges the pair itself
    if not r.energy_on_spawn:
        return cause("on-spawn", f"energy placed on {list(at)}, a spawn point "
                     "(not-on-spawn)")
    if at[0] not in _pairs(r, field):
        return cause("pair", f"energy placed on {list(at)}, not an empty mirror pair")
    return OK


def energy_squares_judge(state: object, action: object, accepted: bool,
                         profile: Profile) -> Verdict:
    """An energy outcome on a spawn point is accepted exactly under any-empty (when its
    squares are empty); no energy, while only such a pair is free, exactly under
    not-on-spawn."""
    if not (isinstance(state, dict) and isinstance(action, dict) and m.well_formed(action)):
        return NA
    if state.get("phase") != "energy" or action.get("type") != "energy":
        return NA
    r = m.readings(profile)
    grid = state["grid"]
    at = action.get("at")
    if not _squares_question(r, grid, at):
        return NA
    if at is None:
        ok = False  # only spawn pairs are free, and they are free only under any-empty
    else:
        s = min(at)
        ok = s in _pairs(r, grid) and max(at) == r.size - 1 - s
    if ok == accepted:
        return OK
    return Violation(f"energy outcome {at} should be {'accepted' if ok else 'refused'} "
                     f"({'any-empty' if r.energy_on_spawn else 'not-on-spawn'})")
