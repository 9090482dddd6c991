"""State-only forms of the Bot Wars checks that read events (`Oracle.bare`).

An engine without events of its own (`no_events`) is judged, on a step whose state differs
from the reference's, by these: each answers for its own rule from the state before, the
action and the engine's state after alone (`account`), and names its departure's kind
(`cause`). A difference another rule explains is not theirs: each form speaks only where
its rule's part of the step is what differs (a turn whose step 1 cannot be read off the
field leaves the later steps unjudged, rather than charged to them).

They must never object to the reference's own steps (tests/test_oracle_events.py).
"""

from __future__ import annotations

from collections.abc import Callable

from gamecert.oracles.base import NA, OK, Transition, Verdict, ambiguous, cause
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import turn as tn
from gamecert.oracles.botwars.model.account import (
    COLLECT,
    COLLIDE,
    CONTESTED,
    ENERGY,
    SPAWN,
    Account,
    account,
)
from gamecert.spec import Profile

Bare = Callable[[Transition, Profile], Verdict]


def _account(t: Transition, profile: Profile) -> Account:
    return account(t, m.readings(profile))


def _charged(rule: str, rules: tuple[str, ...], kind: str, text: str) -> Verdict:
    """`rule`'s violation where `rules` (the rules one departure breaks) name it: alone,
    or as one of several that one step cannot tell apart."""
    if len(rules) == 1:
        return cause(kind, text)
    return cause(kind, ambiguous(rules, text))


# --- step 1: the entries of a list, collisions, crowds -----------------------------------
def entries(rule: str) -> Bare:
    """The state-only form of a move rule's check: the account of step 1 that gives the
    engine's state (p1's pending list, or the field after the turn) names the rule broken;
    the rules' own account: OK where the list meets the rule. (These forms judge every
    step; `edges.edge_deferred` leaves to BOTWARS-GRID what the other reading of the edge
    explains: the oracles use them so wrapped.)"""

    def bare(t: Transition, profile: Profile) -> Verdict:
        acc = _account(t, profile)
        if not (acc.submission or acc.resolution) or (acc.kind != "moves" and rule != COLLIDE):
            return NA
        if rule not in acc.concerned and rule != COLLIDE:
            return NA
        found = acc.fitting
        if not found:
            return NA  # step 1 cannot be read off the state: nothing to say of it
        if not found[0].rules:
            return OK if rule in acc.concerned else NA
        breaks = acc.breaks
        if rule not in breaks:
            return NA
        first = next(c for c in found if rule in c.rules)
        return _charged(rule, breaks, first.kind, f"{acc.player}'s list: {first.text}")

    bare.__name__ = f"bare_{rule.lower().replace('-', '_')}"
    return bare


def _energy_moves(t: Transition, profile: Profile) -> Verdict:
    """BOTWARS-MOVE-ENERGY without events: the entries onto energy, and the energy gathered
    by moving onto it (gather) in the engine's energy after the turn."""
    verdict = entries(ENERGY)(t, profile)
    if verdict is not OK and verdict is not NA:
        return verdict
    acc = _account(t, profile)
    if acc.turn is None or not any(acc.turn.gathered):
        return verdict
    return _energy_verdict(acc, ENERGY, "gather") or OK


# --- step 2: the battles -----------------------------------------------------------------
def battle_plain(t: Transition, profile: Profile) -> Verdict:
    """BOTWARS-BATTLE without events: on the engine's own field after step 1, the botlets
    its field after the turn shows dead are those the battle rule kills."""
    acc = _account(t, profile)
    turn = acc.turn
    if turn is None:
        return NA
    r = acc.r
    foes = m.contacts(r, turn.moved)
    dead, unknown = acc.died()
    dead = frozenset(sq for sq in dead if sq not in turn.step1_dead)
    want = frozenset(m.deaths(r, foes)) - unknown
    dead -= unknown
    if not foes and not dead:
        return NA
    if dead == want:
        return OK
    missing, extra = sorted(want - dead), sorted(dead - want)
    parts = []
    if missing:
        parts.append(f"botlets on {missing} lose a fight and must die")
    if extra:
        parts.append(f"botlets on {extra} die but lose no fight")
    return cause("deaths", "; ".join(parts) + " (on the engine's field after the moves)")


def markers(t: Transition, profile: Profile) -> Verdict:
    """BOTWARS-DEAD-MARKERS without events: outside the carrying out of a turn the markers
    stay (placed energy may cover one, where markers are empty squares); after a turn whose
    step 1 and battles are the rules', the markers are this turn's dead."""
    acc = _account(t, profile)
    r = acc.r
    before, after = t.before["grid"], t.after["grid"]
    old = {sq: before[sq] for sq in m.where(before, "x") + m.where(before, "X")}
    new = {sq: after[sq] for sq in m.where(after, "x") + m.where(after, "X")}
    if not m.is_resolution(t.before, t.action, r):
        if not old and not new:
            return NA
        covered = acc.placed if r.markers_empty else frozenset()
        kept = {sq: c for sq, c in old.items() if sq not in covered or after[sq] in "xX"}
        if new != kept:
            return cause("changed", "dead markers changed outside the carrying out of a turn")
        return OK
    if not acc.resolution:
        return NA
    if acc.fit is not None:
        return OK if old or new else NA  # the markers fit the engine's step 1 and battles
    # nothing fits: the live botlets may be the rules' while the markers are not
    b = t.before
    rules = acc.candidates()[0]
    want = tn.carry_out(r, b["grid"], (b["p1"]["energy"], b["p2"]["energy"]),
                        (b["p1"]["spawnDisabled"], b["p2"]["spawnDisabled"]), rules.lists)
    live = [(sq, c) for sq, c in enumerate(acc.field) if c in "12"]
    if live != [(sq, c) for sq, c in enumerate(want.collected) if c in "12"]:
        return NA
    shown = {sq: c for sq, c in enumerate(acc.field) if c in "xX"}
    due = {sq: c for sq, c in enumerate(want.collected) if c in "xX"}
    if shown == due:
        return NA
    stale = sorted(set(shown) & set(old) - set(due))
    text = (f"dead markers after the turn are {sorted(shown.items())}, this turn's dead are "
            f"{sorted(due.items())}")
    return cause("stale" if stale else "marks", text)


# --- steps 3 and 4: razing and spawning -------------------------------------------------
def raze(t: Transition, profile: Profile) -> Verdict:
    """BOTWARS-RAZE without events: after a turn a spawn is razed exactly when it was, or a
    live enemy stands on it (after the battles; nothing after them moves a botlet); at any
    other step the flags stay."""
    acc = _account(t, profile)
    r = acc.r
    b, a = t.before, t.after
    problems, applies = [], False
    for side in (1, 2):
        name, sq = m.NAME[side], r.spawn[side]
        was, now = b[name]["spawnDisabled"], a[name]["spawnDisabled"]
        if not acc.resolution:
            if was != now and a["phase"] != "over":
                applies = True
                problems.append(f"{name}'s spawn changed outside the carrying out of a turn")
            continue
        raider = acc.field[sq] == m.LIVE[3 - side]
        if not (was or now or raider or acc.field[sq] == m.DEAD[3 - side]):
            continue
        applies = True
        want = was or raider
        if now != want:
            problems.append(f"{name}'s spawn should {'' if want else 'not '}be razed: after "
                            f"the turn its square holds {acc.field[sq]!r}")
    if not applies:
        return NA
    return cause("razed", "; ".join(problems)) if problems else OK


def _spawn(t: Transition, profile: Profile) -> Verdict:
    """BOTWARS-SPAWN without events: on the engine's field after the battles, each bot that
    may spawn (spawn not razed, energy at least cost, its square empty) gets a botlet on
    its spawn point and no other does; the energy it pays shows where nothing else of the
    turn moves that bot's energy."""
    acc = _account(t, profile)
    turn = acc.turn
    if turn is None:
        return NA
    r = acc.r
    battled = acc.battled()
    applies = False
    for side in (1, 2):
        name, sq = m.NAME[side], r.spawn[side]
        energy = turn.energy_at_spawn[side - 1]
        got = acc.spawned(side)
        if energy < r.cost and not got:
            continue
        applies = True
        razed = bool(t.after[name]["spawnDisabled"])
        want = not razed and energy >= r.cost and r.vacant(battled[sq])
        if got != want:
            why = ("razed" if razed else f"energy {energy}" if energy < r.cost else
                   f"its square holds {battled[sq]!r} after the battles")
            text = f"{name} should {'' if want else 'not '}get a botlet on its spawn ({why})"
            if acc.paid_by_collection(side) and not razed:
                return _charged(SPAWN, ORDER_SPAWN, "paid-by-collection",
                                text + ", yet spawned with energy collected this turn")
            return cause("spawned" if got else "not-spawned", text)
    if not applies:
        return NA
    return _energy_verdict(acc, SPAWN, "payment") or OK


# --- step 5: energy ------------------------------------------------------------------------
def _energy_verdict(acc: Account, rule: str, kind: str) -> Verdict | None:
    """`rule`'s violation where the engine's energy after the turn differs from the
    rules' and a change of `rule` alone would explain it (several rules: one step cannot
    tell which); None otherwise."""
    for side in (1, 2):
        rules = acc.energy_rules(side)
        if rule in rules:
            name = m.NAME[side]
            gap = acc.energy_gap(side)
            return _charged(rule, rules, kind, f"{name}'s energy after the turn is "
                            f"{acc.t.after[name]['energy']}, {gap:+d} on what the rules give")
    return None


def collection(contested: bool) -> Bare:
    """BOTWARS-ENERGY-COLLECT (or -CONTESTED) without events: each energy on the field in
    step 5 touched by one bot (by both) leaves it, and an untouched one stays (COLLECT:
    the adjacency); the energy it earns shows in the bots' energy."""
    rule = CONTESTED if contested else COLLECT

    def bare(t: Transition, profile: Profile) -> Verdict:
        acc = _account(t, profile)
        if acc.turn is None:
            return NA
        r = acc.r
        applies = False
        for sq in acc.energy_squares():
            n1, n2 = _touch(acc, sq)
            both = bool(n1 and n2)
            gone = acc.vanished(sq)
            if not (n1 or n2):
                if contested:
                    continue
                near = r.neighbour_sets(True)[sq]
                if gone or any(acc.field[n] in "12" for n in near):
                    applies = True
                if gone:
                    return cause("untouched-taken", f"energy on {sq}, touched by no botlet "
                                 f"({'eight' if r.diagonal_energy else 'four'} neighbours), "
                                 "was taken off the field")
                continue
            if both != contested:
                continue
            applies = True
            if not gone:
                return cause("left", f"energy on {sq} touched by {n1} p1 and {n2} p2 "
                             "botlets should leave the field in step 5")
        verdict = _energy_verdict(acc, rule, "credit")
        if verdict is not None:
            return verdict
        return OK if applies else NA

    bare.__name__ = f"bare_{'contested' if contested else 'collect'}"
    return bare


def _touch(acc: Account, sq: int) -> tuple[int, int]:
    return tn.touching(acc.r, acc.field, sq)


# --- the turn, the protocol --------------------------------------------------------------
# a spawn paid with energy collected in the same turn: step 5 before step 4 (the order), or
# a botlet spawned without the price (the spawn rule); one step cannot tell
ORDER_SPAWN = ("BOTWARS-TURN-ORDER", SPAWN)


def turn_order(t: Transition, profile: Profile) -> Verdict:
    """BOTWARS-TURN-ORDER without events: p1's list changes nothing but the phase and the
    pending list; a turn carried out moves turnsElapsed on by one and ends in phase p1,
    energy or over; an energy placement ends in phase p1. (Late and malformed replies are
    their own rules'; the order of the steps inside a turn shows only in events.)"""
    b, a, kind = t.before, t.after, t.action.get("type")
    if kind in ("timeout", "bad-format"):
        return NA
    problems = []
    if b["phase"] == "p1":
        if a["phase"] != "p2":
            problems.append(f"after p1's list the phase is {a['phase']!r}, not 'p2'")
        for key in ("grid", "turnsElapsed", "p1", "p2", "winner", "endReason"):
            if a[key] != b[key]:
                problems.append(f"p1's list changed {key} before p2 moved")
    elif b["phase"] == "p2":
        if a["turnsElapsed"] != b["turnsElapsed"] + 1:
            problems.append(f"turnsElapsed went from {b['turnsElapsed']} to "
                            f"{a['turnsElapsed']}")
        if a["phase"] not in ("p1", "energy", "over"):
            problems.append(f"after p2's list the phase is {a['phase']!r}")
        acc = _account(t, profile)
        early = [side for side in (1, 2) if acc.paid_by_collection(side)]
        if not problems and early:
            return _charged("BOTWARS-TURN-ORDER", ORDER_SPAWN, "paid-by-collection",
                            f"{m.NAME[early[0]]} spawned with energy collected this turn "
                            "(step 5 before step 4)")
    elif b["phase"] == "energy":
        if a["phase"] != "p1" or a["turnsElapsed"] != b["turnsElapsed"]:
            problems.append(f"after the energy step the phase is {a['phase']!r}, turn "
                            f"{a['turnsElapsed']}")
    else:
        return NA
    if a["phase"] != "over" and a["winner"] is not None:
        problems.append("a winner is named while the game goes on")
    return cause("phases", "; ".join(problems)) if problems else OK


def disqualified(rule: str) -> Bare:
    """The state-only form of a disqualification's check (BOTWARS-FORMAT-DQ, and
    BOTWARS-TIME-LIMIT at disqualify): the culprit alone is disqualified, the other bot
    wins, and nothing of the turn is carried out."""

    def bare(t: Transition, profile: Profile) -> Verdict:
        from gamecert.oracles.botwars import game
        b = t.before
        if b["phase"] not in ("p1", "p2"):
            return NA
        if rule == "BOTWARS-FORMAT-DQ":
            if t.action.get("type") != "bad-format":
                return NA
        elif t.action.get("type") != "timeout":
            return NA
        r = m.readings(profile)
        if rule == "BOTWARS-TIME-LIMIT" and not r.timeout_dq:
            return _late_turn(t, r)
        return game.disqualification(t, rule, events=False)

    bare.__name__ = f"bare_{rule.lower().replace('-', '_')}"
    return bare


def _late_turn(t: Transition, r: m.Readings) -> Verdict:
    """BOTWARS-TIME-LIMIT at empty-turn: the late bot moves nothing and is not
    disqualified; a late p1 leaves p2 to move with no pending moves."""
    b, a = t.before, t.after
    player = b["phase"]
    if a["endReason"] == "disqualified":
        return cause("disqualified", "under empty-turn a late bot is not disqualified")
    if player == "p1" and (a["phase"] != "p2" or a["pending"] != []):
        return cause("moved", "a late p1 moves nothing: p2 is to move with no pending moves")
    if player == "p2":
        acc = account(t, r)
        if acc.resolution and acc.fit is not None and acc.fit.rules:
            return cause("moved", "a late p2 moves nothing")
    return OK


energy_moves = _energy_moves
spawn = _spawn

__all__ = ["battle_plain", "collection", "disqualified", "energy_moves", "entries", "markers",
           "raze", "spawn", "turn_order"]
