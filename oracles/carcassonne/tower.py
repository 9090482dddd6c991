"""Oracles for The Tower (CARC-TOWER-*), on canonical JSON and the tile catalogue only.

Every check is not applicable outside the tower stage (CARC-TOWER-TILES.enabled false). The
tower stage's canonical state adds `towers` (cell, height, cap), `floors` (left per player),
`prisoners` ([captor - 1][owner - 1]) and `ransom_paid`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gamecert.oracles.base import NA, OK, Oracle, Transition, Verdict, Violation, expect
from gamecert.oracles.carcassonne import bare
from gamecert.oracles.carcassonne.board import (
    STEP,
    Cell,
    catalogue,
    deck_sets,
    tile_totals,
    tower_ids,
)
from gamecert.oracles.carcassonne.checks.common import _action_of, _cell, _events, _is
from gamecert.oracles.carcassonne.checks.scores import _pre_final
from gamecert.spec import Profile

JSON = Any


@cache  # a profile's facts: asked at every step (profiles are frozen, hashed by identity)
def tower_stage(p: Profile) -> bool:
    return "tower" in deck_sets(p)


@cache
def _n(p: Profile) -> int:
    return int(p.param("CARC-PLAYERS", "players"))


def given_floors(p: Profile) -> int:
    return int(p.param("CARC-TOWER-FLOORS", f"floors_{_n(p)}p"))


def has_foundation(state: JSON, cell: Cell) -> bool:
    for b in state["board"]:
        if _cell(b["at"]) == cell:
            return any(kind == "tower" for kind, _, _ in catalogue()[b["tile"]].features)
    return False


def towers(state: JSON) -> dict[Cell, tuple[int, int | None]]:
    return {_cell(w["at"]): (w["height"], w["cap"]) for w in state.get("towers", [])}


def reach(cell: Cell, height: int) -> set[Cell]:
    """CARC-TOWER-REACH from the rule's words: the tower's cell and up to `height` steps in
    each of the four straight directions; nothing blocks it."""
    return {cell} | {(cell[0] + k * dx, cell[1] + k * dy) for dx, dy in STEP
                     for k in range(1, height + 1)}


def _site_problem(state: JSON, at: Cell, p: Profile) -> str | None:
    """Why a floor or capping meeple may not go on the tower at `at` now."""
    if state["step"] != "claim" or state["placed"] is None:
        return "a tower action outside the action step after placing a tile"
    if not has_foundation(state, at):
        return f"no tower foundation at {list(at)}"
    if towers(state).get(at, (0, None))[1] is not None:
        return f"the tower at {list(at)} is capped"
    if p.variant("CARC-TOWER-ACTION") == "placed-tile" and list(at) != state["placed"]:
        return f"only the tile just placed may take it (placed-tile), not {list(at)}"
    return None


def _victim(state: JSON, capture: JSON) -> int | None:
    """The owner of the meeple a capture names in `state`, or None if there is none."""
    cell = _cell(capture["at"])
    if capture["on"] == "tower":
        return towers(state).get(cell, (0, None))[1]
    for m in state["meeples"]:
        if _cell(m["at"]) == cell and m["on"] == capture["on"]:
            return int(m["player"])
    return None


# --- CARC-TOWER-TILES ------------------------------------------------------------------------
@cache
def _tower_count() -> int:
    return sum(i.count for i in catalogue().values() if i.set == "tower")


def tower_tiles(s: JSON, p: Profile) -> Verdict:
    """The 18 Tower tiles are in the game in the tower stage, and only then."""
    want = _tower_count() if tower_stage(p) else 0
    ids, totals = tower_ids(), tile_totals(s)
    # none there (outside the tower stage, always): the sum of nothing, 0
    got = 0 if ids.isdisjoint(totals) else sum(n for tid, n in totals.items() if tid in ids)
    if not tower_stage(p):
        return expect(got == 0 and "towers" not in s,
                      "Tower tiles or towers outside the tower stage") if got or "towers" in s \
            else NA
    return expect(got == want, f"{got} Tower tiles in the game, the tower stage has {want}")


# --- CARC-TOWER-FLOORS -----------------------------------------------------------------------
def floors_state(s: JSON, p: Profile) -> Verdict:
    if not tower_stage(p) or "floors" not in s:
        return NA
    given = given_floors(p)
    if any(not 0 <= f <= given for f in s["floors"]):
        return Violation(f"floors left {s['floors']}: each player has 0 to {given}")
    built = sum(h for h, _ in towers(s).values())
    used = given * _n(p) - sum(s["floors"])
    return expect(built == used, f"the towers hold {built} floors, the players used {used}")


def floors_check(t: Transition, p: Profile) -> Verdict:
    if not tower_stage(p) or not _is(t, "tower"):
        return NA
    who = t.before["to_move"] - 1
    want = list(t.before["floors"])
    want[who] -= 1
    return expect(t.before["floors"][who] > 0 and t.after["floors"] == want,
                  f"a floor by player {who + 1}: floors {t.before['floors']} became "
                  f"{t.after['floors']}")


def floors_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    if not accepted or not tower_stage(p) or not _action_of(action, "tower") \
            or state["to_move"] is None:
        return NA
    return expect(state["floors"][state["to_move"] - 1] > 0,
                  "the engine accepted a floor from a player with none left")


# --- CARC-TOWER-ACTION -----------------------------------------------------------------------
def action_check(t: Transition, p: Profile) -> Verdict:
    if not tower_stage(p) or not (_is(t, "tower") or _is(t, "cap")):
        return NA
    at = _cell(t.action["at"])
    why = _site_problem(t.before, at, p)
    if why:
        return Violation(why)
    before, after = towers(t.before), towers(t.after)
    height = before.get(at, (0, None))[0]
    if _is(t, "cap"):
        who = t.before["to_move"]
        return expect(height > 0 and after.get(at) == (height, who),
                      f"capping the tower at {list(at)} (height {height}) left it "
                      f"{after.get(at)}")
    return expect(after.get(at, (0, None))[0] == height + 1,
                  f"a floor on the tower at {list(at)} of height {height} left it "
                  f"{after.get(at)}")


def action_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    """An accepted floor or cap where none may go; a refused plain floor where one may."""
    if not tower_stage(p) or not (_action_of(action, "tower") or _action_of(action, "cap")):
        return NA
    why = _site_problem(state, _cell(action["at"]), p)
    if accepted:
        if why:
            return Violation(f"the engine accepted a {action['type']} there: {why}")
        if action["type"] == "cap" and not towers(state).get(_cell(action["at"])):
            return Violation("the engine accepted a meeple on an unstarted tower")
        return OK
    who = state["to_move"]
    if why or who is None or action["type"] != "tower" or "capture" in action \
            or state["floors"][who - 1] <= 0:
        return NA
    return Violation(f"the engine refused a floor on the tower at {action['at']}, which may "
                     f"take one")


# --- CARC-TOWER-REACH ------------------------------------------------------------------------
def reach_check(t: Transition, p: Profile) -> Verdict:
    caught = _events(t, "meeple-captured")
    if not tower_stage(p) or not _is(t, "tower") or not caught:
        return NA
    at = _cell(t.action["at"])
    height = towers(t.before).get(at, (0, None))[0] + 1
    for e in caught:
        if _cell(e["at"]) not in reach(at, height):
            return Violation(f"a tower {height} high at {list(at)} captured at {e['at']}, out "
                             f"of its reach")
    return OK


def reach_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    if not tower_stage(p) or not _action_of(action, "tower") or "capture" not in action:
        return NA
    at = _cell(action["at"])
    if _site_problem(state, at, p) or state["to_move"] is None \
            or state["floors"][state["to_move"] - 1] <= 0:
        return NA  # the floor itself is not allowed: the site and floor rules say so
    height = towers(state).get(at, (0, None))[0] + 1
    target = _cell(action["capture"]["at"])
    there = _victim(state, action["capture"]) is not None and not (
        action["capture"]["on"] == "tower" and target == at)
    inside = target in reach(at, height)
    if accepted:
        return expect(inside and there, f"the engine accepted a capture at {list(target)} "
                                        f"by a tower {height} high at {list(at)}: "
                                        f"{'no meeple there' if not there else 'out of reach'}")
    return expect(not (inside and there), f"the engine refused to capture the meeple at "
                                          f"{list(target)}, within reach of a tower {height} "
                                          f"high at {list(at)}")


# --- CARC-TOWER-CAPTURE ----------------------------------------------------------------------
def capture_check(t: Transition, p: Profile) -> Verdict:
    """The captured meeple leaves the board (a capped tower opens); an opponent's becomes
    the captor's prisoner, one's own goes back to the supply."""
    if not tower_stage(p) or not _is(t, "tower"):
        return NA
    caught = _events(t, "meeple-captured")
    capture = t.action.get("capture")
    if capture is None:
        return expect(not caught, "a floor without a capture captured a meeple")
    owner = _victim(t.before, capture)
    if owner is None:
        return NA  # nothing to capture there: the reach rule's finding
    if len(caught) != 1:
        return Violation(f"a capture made {len(caught)} meeple-captured events")
    cell, on = _cell(capture["at"]), capture["on"]
    if on == "tower":
        if towers(t.after).get(cell, (0, None))[1] is not None:
            return Violation(f"the meeple capping the tower at {list(cell)} was captured but "
                             f"the tower is still capped")
    elif any(_cell(m["at"]) == cell and m["on"] == on for m in t.after["meeples"]):
        return Violation(f"the captured meeple at {list(cell)} ({on}) is still on the board")
    captor = t.before["to_move"]
    want = [list(r) for r in t.before["prisoners"]]
    if owner != captor:
        want[captor - 1][owner - 1] += 1
    # an exchange may follow at once: whether it must is CARC-TOWER-EXCHANGE's to say
    swapped = [list(r) for r in want]
    if owner != captor and want[owner - 1][captor - 1] and \
            p.variant("CARC-TOWER-EXCHANGE") == "immediate":
        swapped[captor - 1][owner - 1] -= 1
        swapped[owner - 1][captor - 1] -= 1
    got = [list(r) for r in t.after["prisoners"]]
    return expect(got in (want, swapped), f"after capturing player {owner}'s meeple, the "
                                          f"prisoners are {t.after['prisoners']}, not {want}")


# --- CARC-TOWER-EXCHANGE ---------------------------------------------------------------------
def exchange_state(s: JSON, p: Profile) -> Verdict:
    if not tower_stage(p) or "prisoners" not in s \
            or p.variant("CARC-TOWER-EXCHANGE") != "immediate":
        return NA
    rows = s["prisoners"]
    mutual = [(a + 1, b + 1) for a in range(len(rows)) for b in range(a + 1, len(rows))
              if rows[a][b] and rows[b][a]]
    return expect(not mutual, f"players {mutual[0] if mutual else ''} hold each other's "
                              f"meeples: they must be exchanged at once")


def exchange_check(t: Transition, p: Profile) -> Verdict:
    """An exchange swaps one pair of mutual prisoners: after a capture (immediate), or when
    the mover asks for it (on-request)."""
    swaps = _events(t, "prisoners-exchanged")
    asked = _is(t, "exchange")
    if not tower_stage(p) or not (swaps or asked):
        return NA
    if p.variant("CARC-TOWER-EXCHANGE") == "immediate":
        return expect(not asked and _is(t, "tower"), "an exchange that no capture made")
    if not asked:
        return Violation("prisoners exchanged without being asked for (on-request)")
    a, b = t.before["to_move"], t.action["with"]
    rows = [list(r) for r in t.before["prisoners"]]
    if not (rows[a - 1][b - 1] and rows[b - 1][a - 1]):
        return Violation(f"players {a} and {b} exchanged prisoners they do not hold")
    rows[a - 1][b - 1] -= 1
    rows[b - 1][a - 1] -= 1
    return expect([list(r) for r in t.after["prisoners"]] == rows,
                  f"an exchange left the prisoners {t.after['prisoners']}, not {rows}")


def exchange_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    if not accepted or not tower_stage(p) or not _action_of(action, "exchange"):
        return NA
    if p.variant("CARC-TOWER-EXCHANGE") == "immediate":
        return Violation("the engine accepted an exchange asked for (exchanges are immediate)")
    a, b = state["to_move"], action["with"]
    rows = state["prisoners"]
    return expect(a is not None and state["step"] == "place" and a != b
                  and rows[a - 1][b - 1] > 0 and rows[b - 1][a - 1] > 0,
                  f"the engine accepted an exchange between players {a} and {b}, who do not "
                  f"hold each other's meeples")


# --- CARC-TOWER-RANSOM -----------------------------------------------------------------------
def _ransom_problem(state: JSON, captor: int, p: Profile) -> str | None:
    payer = state["to_move"]
    cost = int(p.param("CARC-TOWER-RANSOM", "points"))
    step = "place" if p.variant("CARC-TOWER-RANSOM") == "before-placing" else "claim"
    if payer is None or state["step"] != step:
        return f"a ransom outside the {step} step of one's own turn"
    if state["ransom_paid"]:
        return "a second ransom in one turn"
    if state["scores"][payer - 1] < cost:
        return f"a ransom paid with {state['scores'][payer - 1]} points (fewer than {cost})"
    if captor == payer or not state["prisoners"][captor - 1][payer - 1]:
        return f"a ransom to player {captor}, who holds no meeple of player {payer}"
    return None


def ransom_check(t: Transition, p: Profile) -> Verdict:
    if not tower_stage(p):
        return NA
    if any(x < 0 for x in t.after["scores"]):
        return Violation(f"a score below zero: {t.after['scores']}")
    if not _is(t, "ransom"):
        return NA
    captor = t.action["captor"]
    why = _ransom_problem(t.before, captor, p)
    if why:
        return Violation(why)
    payer = t.before["to_move"]
    cost = int(p.param("CARC-TOWER-RANSOM", "points"))
    want = list(t.before["scores"])
    want[payer - 1] -= cost
    want[captor - 1] += cost
    got = _pre_final(t)  # a ransom that ends the game is followed by the final scoring
    ended = bool(_events(t, "game-ended"))
    if got != want:
        return Violation(f"a ransom from {payer} to {captor}: scores {t.before['scores']} became "
                         f"{got}, not {want}")
    rows = [list(r) for r in t.before["prisoners"]]
    rows[captor - 1][payer - 1] -= 1
    if [list(r) for r in t.after["prisoners"]] != rows:
        return Violation(f"a ransom must free exactly one meeple: prisoners "
                         f"{t.before['prisoners']} became {t.after['prisoners']}")
    return expect(ended or t.after["ransom_paid"], "the ransom was not recorded for the turn")


def ransom_bare(t: Transition, p: Profile) -> Verdict:
    """CARC-TOWER-RANSOM's state-only form, with the rule's own test of when one may pay."""
    return bare.tower_ransom(t, p, _ransom_problem)


def ransom_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    if not accepted or not tower_stage(p) or not _action_of(action, "ransom"):
        return NA
    why = _ransom_problem(state, action["captor"], p)
    return Violation(f"the engine accepted {why}") if why else OK


# --- CARC-TOWER-MEEPLES ----------------------------------------------------------------------
def meeples_state(s: JSON, p: Profile) -> Verdict:
    """Supply + board + imprisoned + on towers = the meeple supply size, per player."""
    if not tower_stage(p) or "prisoners" not in s:
        return NA
    total = int(p.param("CARC-MEEPLE-SUPPLY", "meeples"))
    n = _n(p)
    rows = s["prisoners"]
    if any(rows[a][a] for a in range(n)):
        return Violation("a player holds their own meeple as a prisoner")
    for q in range(1, n + 1):
        board = sum(1 for m in s["meeples"] if m["player"] == q)
        held = sum(rows[a][q - 1] for a in range(n))
        caps = sum(1 for _, cap in towers(s).values() if cap == q)
        if board + held + caps + s["supply"][q - 1] != total:
            return Violation(f"player {q}: {s['supply'][q - 1]} in the supply, {board} on the "
                             f"board, {held} imprisoned, {caps} on towers: not {total}")
    return OK


TOWER_ORACLES: list[Oracle] = [
    Oracle("CARC-TOWER-TILES", state=tower_tiles),
    Oracle("CARC-TOWER-FLOORS", state=floors_state, check=floors_check, judge=floors_judge,
           on=frozenset({"tower"}), within=tower_stage),
    Oracle("CARC-TOWER-ACTION", check=action_check, judge=action_judge,
           on=frozenset({"tower", "cap"}), within=tower_stage),
    Oracle("CARC-TOWER-REACH", check=reach_check, judge=reach_judge, within=tower_stage,
           reads_events=True, bare=bare.tower_reach),
    Oracle("CARC-TOWER-CAPTURE", check=capture_check, on=frozenset({"tower"}),
           within=tower_stage, reads_events=True, bare=bare.tower_capture),
    Oracle("CARC-TOWER-EXCHANGE", state=exchange_state, check=exchange_check,
           judge=exchange_judge, reads_events=True, bare=bare.tower_exchange),
    Oracle("CARC-TOWER-RANSOM", check=ransom_check, judge=ransom_judge, within=tower_stage,
           reads_events=True, bare=ransom_bare),
    Oracle("CARC-TOWER-MEEPLES", state=meeples_state, within=tower_stage),
]
