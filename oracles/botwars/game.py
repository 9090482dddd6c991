"""Oracles for the field, the turn and the game: BOTWARS-GRID, -TURN-ORDER, -END-*, -WINNER,
-FORMAT-DQ, -TIME-LIMIT."""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, cause
from gamecert.oracles.botwars import model as m
from gamecert.oracles.botwars.model import steps
from gamecert.spec import Profile

JSON = Any


def grid_state(s: JSON, profile: Profile) -> Verdict:
    r = m.readings(profile)
    if (s["rows"], s["cols"]) != (r.rows, r.cols):
        return Violation(f"the field is {s['rows']}x{s['cols']}, not {r.rows}x{r.cols}")
    grid = s["grid"]
    if not (_grid_shaped(grid, r.size) if type(grid) is str else _plain_shaped(grid, r.size)):
        return Violation(f"the grid is not {r.size} squares of . 1 2 * x X")
    return OK


SQUARES = frozenset(".12*xX")


def _plain_shaped(grid: Any, size: int) -> bool:
    """Is `grid` `size` squares of . 1 2 * x X? (Any JSON the engine sent.)"""
    return not (len(grid) != size or set(grid) - SQUARES)


@lru_cache(maxsize=16)  # a state's grid is this step's after and the next step's before
def _grid_shaped(grid: str, size: int) -> bool:
    """`_plain_shaped` of a string: the squares' characters deleted leave nothing."""
    return len(grid) == size and not grid.translate(_NOT_SQUARES)


_NOT_SQUARES = {ord(c): None for c in SQUARES}  # str.translate: delete every square's mark


def grid_check(t: Transition, profile: Profile) -> Verdict:
    """Shape, and on the field every move event is one step between adjacent squares of
    this profile's grid (no wrap unless the profile wraps)."""
    for doc in (t.before, t.after):
        verdict = grid_state(doc, profile)
        if verdict is not OK:
            return verdict
    r = m.readings(profile)
    size, near = r.size, r.neighbour_sets()  # `r.adjacent` of a square of the field
    for e in t.events:
        if e["type"] in ("moved", "bounced", "collided") and e["to"] not in (
                near[e["from"]] if type(e["from"]) is int and 0 <= e["from"] < size
                else r.adjacent(e["from"])):
            return Violation(f"{e['player']} stepped {e['from']} -> {e['to']}: not adjacent "
                             f"on a {'wrapping' if r.wrap else 'bounded'} field")
    return OK


# --- BOTWARS-TURN-ORDER --------------------------------------------------------------------
_STEP = {"move-invalid": 0, "turn-lost": 0, "stayed": 0, "timed-out": 0, "disqualified": 0,
         "moved": 1, "bounced": 1, "collided": 1, "razed": 3, "spawned": 4, "spawn-wasted": 4,
         "energy-removed": 5, "game-ended": 7, "energy-spawned": 8}


# the step of each event type whose step its rule does not decide (`_step` for the others;
# every step here is above 0, so `or` falls to `_step` only for those)
_STEP_OF = {kind: step for kind, step in _STEP.items() if step > 0}


# the rules whose deaths happen in step 1 (a collision; a crowd of one bot at die-there)
_STEP_ONE_DEATHS = frozenset({"BOTWARS-MOVE-COLLIDE", "BOTWARS-MOVE-SAME-TARGET"})


def _step(e: JSON) -> int:
    if e["type"] == "died":
        return 1 if e["rule"] in _STEP_ONE_DEATHS else 2
    if e["type"] == "energy-collected":
        return 1 if e["rule"] == "BOTWARS-MOVE-ENERGY" else 5
    return _STEP.get(e["type"], -1)


def turn_order_check(t: Transition, profile: Profile) -> Verdict:
    """Phases follow p1 -> p2 -> (energy) -> p1; events come in step order; and the events
    replayed in that order on the state before give the state after."""
    r = m.readings(profile)
    b, a, kind = t.before, t.after, t.action.get("type")
    problems = []
    ended = a["phase"] == "over"
    if b["phase"] == "p1":
        want = ["over"] if kind in ("bad-format",) or (kind == "timeout" and r.timeout_dq) \
            else ["p2"]
        want_turns = b["turnsElapsed"]
    elif b["phase"] == "p2":
        if kind == "bad-format" or (kind == "timeout" and r.timeout_dq):
            want, want_turns = ["over"], b["turnsElapsed"]
        else:
            want, want_turns = ["p1", "energy", "over"], b["turnsElapsed"] + 1
    else:
        want, want_turns = ["p1"], b["turnsElapsed"]
    if a["phase"] not in want:
        problems.append(f"after phase {b['phase']!r} and a {kind!r} action the phase is "
                        f"{a['phase']!r}, expected one of {want}")
    if a["turnsElapsed"] != want_turns:
        problems.append(f"turnsElapsed went from {b['turnsElapsed']} to {a['turnsElapsed']}")
    if a["phase"] == "p2" and b["grid"] != a["grid"]:
        problems.append("p1's list changed the field before p2 moved")
    steps = [_STEP_OF.get(e["type"]) or _step(e) for e in t.events]
    if -1 in steps:
        problems.append("an event of unknown type")
    if steps != sorted(steps):
        problems.append(f"events out of turn order: {[e['type'] for e in t.events]}")
    if not ended and a["winner"] is not None:
        problems.append("a winner is named while the game goes on")
    problems += _replay(t, r)
    return Violation("; ".join(problems)) if problems else OK


def turn_order_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    """A bot's action is accepted exactly in its own phase; nothing after the game is over;
    chance outcomes only in phase energy (whether one fits is BOTWARS-ENERGY-SPAWN's)."""
    if not isinstance(state, dict) or not isinstance(action, dict) or not m.well_formed(action):
        return NA
    phase, kind = state.get("phase"), action.get("type")
    # a bad-format verdict out of a bot's phase is BOTWARS-FORMAT-DQ's (format_judge)
    player_kinds = ("moves", "timeout")
    if kind == "bad-format":
        return NA
    if phase in ("p1", "p2") and kind in player_kinds:
        should = True
    elif phase == "over" or (phase == "energy" and kind in player_kinds) or (
            phase in ("p1", "p2") and kind == "energy"):
        should = False
    else:
        return NA
    if should == accepted:
        return OK
    return Violation(f"a {kind!r} action in phase {phase!r} must be "
                     f"{'accepted' if should else 'refused'}")


class _Writes:
    """Squares written on a field string, as `list(field)` takes them, laid on the string by
    `text`: a square a list would not simply take (not an integer on the field) turns it
    into that list, which then takes or refuses it as it would have."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.at: dict[int, str] = {}
        self.listed: list[str] | None = None

    def __setitem__(self, square: Any, char: str) -> None:
        n = len(self.base)
        if self.listed is None:
            if isinstance(square, int) and -n <= square < n:
                self.at[square % n] = char  # a negative square counts from the end
                return
            self.listed = list(self.text())
        self.listed[square] = char

    def text(self) -> str:
        """The field with the writes (the last one on a square wins)."""
        if self.listed is not None:
            return "".join(self.listed)
        if not self.at:
            return self.base
        base, parts, start = self.base, [], 0
        for square in sorted(self.at):
            parts.append(base[start:square])
            parts.append(self.at[square])
            start = square + 1
        parts.append(base[start:])
        return "".join(parts)


def _replay(t: Transition, r: m.Readings, lazy: bool = True) -> list[str]:
    """What the events replayed on the state before leave differently from the state after.
    `lazy`: the events write on the field string through `_Writes` (False: on a list of
    its squares, as the plain computation does; the tests compare the two)."""
    b, a = t.before, t.after
    step = steps.step(t, r)
    # the field after the moves is shared with the other oracles of the turn: the writes
    # are kept apart and laid on the string at the end (`_Writes`), or made on a list
    base = step.moved if step.resolution else b["grid"]
    grid: list[str] | _Writes = (list(base) if not lazy or type(base) is not str
                                 else _Writes(base))
    energy = {p: b[p]["energy"] for p in ("p1", "p2")}
    razed = {p: b[p]["spawnDisabled"] for p in ("p1", "p2")}
    dq = {p: b[p]["disqualified"] for p in ("p1", "p2")}
    winner, reason = b["winner"], b["endReason"]
    for e in t.events:
        kind, p = e["type"], e.get("player")
        if kind == "moved":  # the moves are in the field after step 1 already
            continue
        if kind == "died" and e["rule"] == "BOTWARS-BATTLE":
            grid[e["at"]] = m.DEAD[m.SIDE[p]]
        elif kind == "razed":
            razed[p] = True
        elif kind == "spawned":
            grid[e["at"]] = m.LIVE[m.SIDE[p]]
            energy[p] -= r.cost
        elif kind == "spawn-wasted":
            energy[p] -= r.cost
        elif kind == "energy-collected":
            energy[p] += 1
            if e["rule"] != "BOTWARS-MOVE-ENERGY":
                grid[e["at"]] = "."
        elif kind == "energy-removed":
            grid[e["at"]] = "."
        elif kind == "energy-spawned":
            for sq in e["at"]:
                grid[sq] = "*"
        elif kind == "disqualified":
            dq[p] = True
        elif kind == "game-ended":
            winner, reason = e["winner"], e["endReason"]
    problems = []
    final = grid.text() if isinstance(grid, _Writes) else "".join(grid)
    if final != a["grid"]:
        diff = [i for i, (x, y) in enumerate(zip(final, a["grid"], strict=True)) if x != y]
        problems.append(f"the events do not account for the field after: squares {diff[:8]}")
    for p in ("p1", "p2"):
        if energy[p] != a[p]["energy"]:
            problems.append(f"the events leave {p} with {energy[p]} energy, the state says "
                            f"{a[p]['energy']}")
        if razed[p] != a[p]["spawnDisabled"] or dq[p] != a[p]["disqualified"]:
            problems.append(f"the events do not account for {p}'s spawnDisabled/disqualified")
    if (winner, reason) != (a["winner"], a["endReason"]):
        problems.append("the events do not account for the result")
    return problems


# --- the end -------------------------------------------------------------------------------
def elimination_check(t: Transition, profile: Profile) -> Verdict:
    r = m.readings(profile)
    # a turn carried out (a late bot disqualified carries none: BOTWARS-TIME-LIMIT's)
    if not m.is_resolution(t.before, t.action, r) or (
            t.after["turnsElapsed"] != t.before["turnsElapsed"] + 1):
        return NA
    a = t.after
    n1, n2 = m.live_counts(a["grid"])
    says = a["endReason"] == "elimination"
    if n1 and n2 and not says:
        return NA
    if n1 and n2:
        return cause("ended-early", f"the game ended by elimination with {n1} and {n2} "
                     "botlets left")
    want = None if not (n1 or n2) else ("p1" if n1 else "p2")
    if a["phase"] != "over" or not says:
        return cause("not-ended", f"a bot has no botlets left ({n1} vs {n2}): the game "
                     "must end")
    if a["winner"] != want:
        return cause("winner", f"after elimination ({n1} vs {n2}) the winner is {want}, "
                     f"not {a['winner']}")
    return OK


def turn_limit_check(t: Transition, profile: Profile) -> Verdict:
    r = m.readings(profile)
    a = t.after
    says = a["endReason"] == "turn-limit"
    at_limit = a["turnsElapsed"] >= r.max_turns
    if not (says or at_limit) or (not m.is_resolution(t.before, t.action, r) and not says):
        return NA
    if a["turnsElapsed"] > r.max_turns:
        return cause("past-limit", f"turn {a['turnsElapsed']} was played; the limit is "
                     f"{r.max_turns}")
    if says and not at_limit:
        return cause("early", f"the game ended by the turn limit after turn "
                     f"{a['turnsElapsed']} of {r.max_turns}")
    if at_limit and a["phase"] != "over":
        return cause("goes-on", f"turn {r.max_turns} was played and the game goes on")
    if at_limit and 0 not in m.live_counts(a["grid"]) and not says:
        return cause("reason", "the game reached the turn limit but ended for another "
                     "reason")
    return OK


def winner_check(t: Transition, profile: Profile) -> Verdict:
    r = m.readings(profile)
    a = t.after
    if a["endReason"] != "turn-limit" or t.before["phase"] == "over":
        return NA
    n1, n2 = m.live_counts(a["grid"])
    e1, e2 = a["p1"]["energy"], a["p2"]["energy"]
    if n1 != n2:
        want = "p1" if n1 > n2 else "p2"
    elif r.tie_by_energy and e1 != e2:
        want = "p1" if e1 > e2 else "p2"
    else:
        want = None
    if a["winner"] != want:
        return Violation(f"at the turn limit with {n1} vs {n2} botlets (energy {e1} vs {e2}) "
                         f"the winner is {want or 'nobody (draw)'}, not {a['winner']}")
    return OK


# --- protocol ------------------------------------------------------------------------------
def _disqualified_ok(t: Transition, rule: str) -> Verdict:
    return disqualification(t, rule, events=True)


def disqualification(t: Transition, rule: str, events: bool) -> Verdict:
    """The culprit (the bot to move) alone is disqualified, the other wins, nothing of the
    turn is carried out; with `events`, a disqualification event names `rule` (the
    state-only form, `events` False, asks for none)."""
    b, a = t.before, t.after
    culprit = b["phase"]
    other = "p2" if culprit == "p1" else "p1"
    problems = []
    if a["phase"] != "over" or a["endReason"] != "disqualified":
        problems.append(f"{culprit} must be disqualified and the game end at once")
    if not a[culprit]["disqualified"] or a[other]["disqualified"]:
        problems.append(f"only {culprit} is disqualified")
    if a["winner"] != other:
        problems.append(f"{other} wins when {culprit} is disqualified")
    if a["grid"] != b["grid"] or a["turnsElapsed"] != b["turnsElapsed"]:
        problems.append("nothing of the turn is carried out after a disqualification")
    if events and not any(e["type"] == "disqualified" and e["rule"] == rule
                          for e in t.events):
        problems.append(f"no disqualification event under {rule}")
    if not problems:
        return OK
    return cause("disqualification", "; ".join(problems)) if not events else Violation(
        "; ".join(problems))


def format_check(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] not in ("p1", "p2") or t.action.get("type") != "bad-format":
        return NA
    return _disqualified_ok(t, "BOTWARS-FORMAT-DQ")


def _by_value(literal: str) -> object:
    """A number with a fraction or an exponent read by its value, as JavaScript reads JSON
    (the nearest double): an integer when that value is whole (integer-value)."""
    value = float(literal)
    return int(value) if math.isfinite(value) and value.is_integer() else value


def parse_reply(text: str, by_value: bool = False) -> list[tuple[int, int]] | None:
    """BOTWARS-FORMAT-DQ restated: the moves of a reply, or None for a bad format. Numbers
    are integers only when written so (integer-literal), or by their value (integer-value)."""
    try:
        data = json.loads(text, parse_float=_by_value if by_value else float)
    except (ValueError, RecursionError):
        return None
    if type(data) is not list:
        return None
    out = []
    for item in data:
        if type(item) is not dict or "from" not in item or "to" not in item:
            return None
        f, to = item["from"], item["to"]
        if type(f) is not int or type(to) is not int:
            return None
        out.append((f, to))
    return out


def format_referee(state: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if not isinstance(state, dict) or state.get("phase") not in ("p1", "p2"):
        return NA
    moves = parse_reply(text, m.readings(profile).number_values)
    if moves is None:
        if action != {"type": "bad-format"}:
            return Violation(f"reply {text[:60]!r} is not a JSON list of {{from, to}} integer "
                             f"objects: it must disqualify, the referee made {action}")
        return OK
    want = {"type": "moves", "moves": [{"from": f, "to": to} for f, to in moves]}
    if action != want:
        return Violation(f"well-formed reply {text[:60]!r} must be taken as sent, the referee "
                         f"made {action}")
    return OK


def format_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if not isinstance(state, dict) or not isinstance(action, dict) or not m.well_formed(action):
        return NA
    if action.get("type") != "bad-format":
        return NA
    ok = state.get("phase") in ("p1", "p2")
    if ok == accepted:
        return OK
    return Violation("a bad-format verdict is " + ("always accepted while a bot is to move"
                                                  if ok else "refused when no bot is to move"))


def time_limit_check(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] not in ("p1", "p2") or t.action.get("type") != "timeout":
        return NA
    r = m.readings(profile)
    if r.timeout_dq:
        return _disqualified_ok(t, "BOTWARS-TIME-LIMIT")
    player = t.before["phase"]
    problems = []
    if not any(e["type"] == "timed-out" and e["player"] == player for e in t.events):
        problems.append(f"{player}'s time-out is not reported")
    if player == "p1" and (t.after["phase"] != "p2" or t.after["pending"] != []):
        problems.append("a late p1 moves nothing: p2 is to move with no pending moves")
    if player == "p2" and any(e.get("player") == "p2" and e["type"] in ("moved", "bounced",
                                                                        "collided")
                              for e in t.events):
        problems.append("a late p2 moves nothing")
    if t.after["endReason"] == "disqualified":
        problems.append("under empty-turn a late bot is not disqualified")
    return Violation("; ".join(problems)) if problems else OK
