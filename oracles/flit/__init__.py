"""Flit oracles: one or more per rule id of `spec/flit.json`.

Each oracle restates its rule over canonical JSON and owns one aspect of a transition, so an
engine that breaks one rule trips that rule's oracle and no other.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, NamedTuple

from gamecert.oracles.base import (
    NA,
    OK,
    Oracle,
    Transition,
    Verdict,
    Violation,
    cause,
    expect,
)
from gamecert.oracles.flit import chance, fast
from gamecert.oracles.flit.board import (
    active_bots,
    available,
    bot_counts,
    changed,
    frozen_turns_count,
    index,
    move_facts,
    move_squares,
    move_valid,
    nbrs,
    patched,
    wrap_dependent,
)
from gamecert.oracles.flit.fast import with_fast_path as _fast
from gamecert.spec import Profile

JSON = Any
PLAYER_ACTIONS = ("move", "pass", "timeout", "invalid")
PHASE_OF = {"move": "move", "pass": "move", "timeout": "move", "invalid": "move",
            "setup": "setup", "neutral": "neutral", "neutral-list": "neutral"}


def action_kind(action: JSON) -> str:
    """The kind of a step, from its action alone (the oracles' `on` sets name these)."""
    kind = action.get("type", "")
    return kind if type(kind) is str else str(kind)  # asked at every step: str() if need be


def _kind(t: Transition) -> str:
    return action_kind(t.action)


# The kinds of step each phase takes: the reference accepted the action in `before`.
MOVE, SETUP, NEUTRAL = (frozenset(PLAYER_ACTIONS), frozenset({"setup"}),
                        frozenset({"neutral", "neutral-list"}))


def _bot(t: Transition) -> int:
    return int(t.before["to_move"])


def _same_board(t: Transition) -> bool:
    return bool(t.before["board"] == t.after["board"])


# --- board -------------------------------------------------------------------------------

@cache
def _size(profile: Profile) -> tuple[int, int]:
    return profile.param("FLIT-BOARD-SIZE", "width"), profile.param("FLIT-BOARD-SIZE", "height")


def board_size(s: JSON, profile: Profile) -> Verdict:
    w, h = _size(profile)
    if s["width"] == w and s["height"] == h and len(s["board"]) == w * h:
        return OK  # every state of every step comes here: no message is written for it
    return Violation(f"board is {s['width']}x{s['height']} with {len(s['board'])} squares; "
                     f"the rule says {w}x{h}")


def torus_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "move" or action.get("type") != "move":
        return NA
    facts = move_facts(state, action)
    if facts is None or not facts.wrap_dependent:
        return NA
    o, d = facts.origin, facts.dest
    if state["board"][o] != str(state["to_move"]) or state["board"][d] != "0":
        return NA
    return expect(accepted, f"move {action['from']} -> {action['to']} refused, but the "
                            "destination touches another own piece across the board's wrap")


def torus_check(t: Transition, profile: Profile) -> Verdict:
    """An applied move that is legal only across the wrap: the torus at work."""
    if _kind(t) != "move":
        return NA
    facts = move_facts(t.before, t.action)
    return OK if facts is not None and facts.valid and facts.wrap_dependent else NA


def torus_referee(state: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    parsed = _parse_reply(state, text)
    if parsed is None or parsed[0] == parsed[1] or state["phase"] != "move":
        return NA
    o, d = parsed
    bot = state["to_move"]
    if not (wrap_dependent(state, o, d, bot) and move_valid(state, o, d, bot)):
        return NA
    return expect(action.get("type") == "move",
                  f"reply {text.strip()!r} is a legal move across the wrap, "
                  f"but the referee made it {action}")


# --- setup -------------------------------------------------------------------------------

def setup_available_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "setup" or action.get("type") != "setup":
        return NA
    i = index(state, action["at"])
    ok = i is not None and available(state, i)
    return expect(accepted == ok, f"setup square {action['at']} is "
                  f"{'available' if ok else 'not available'} but the engine "
                  f"{'accepted' if accepted else 'refused'} it")


def setup_available_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "setup":
        return NA
    i = index(t.before, t.action["at"])
    return expect(i is not None and available(t.before, i),
                  f"initial piece put on {t.action['at']}, which was not available")


def setup_order(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "setup":
        return NA
    per_bot = profile.param("FLIT-SETUP-ORDER", "pieces_per_bot")
    placed = len(t.before["board"]) - t.before["board"].count("0")
    due = placed % 4 + 1
    diff = changed(t.before["board"], t.after["board"])
    if t.before["to_move"] != due:
        return Violation(f"after {placed} initial pieces bot {due} is due, "
                         f"state says bot {t.before['to_move']}")
    if list(diff.values()) != [str(due)]:
        return Violation(f"initial piece {placed + 1} should be one piece of bot {due}, "
                         f"the board changed by {diff}")
    if placed + 1 == per_bot * 4:
        a = t.after
        return expect(a["phase"] == "move" and a["to_move"] == 1 and a["turn"] == 0
                      and "5" not in a["board"],
                      "after the last initial piece bot 1 must move first, at turn 0, "
                      f"with no neutrals; got phase {a['phase']}, to_move {a['to_move']}")
    return expect(t.after["phase"] == "setup" and t.after["to_move"] == (placed + 1) % 4 + 1,
                  f"after {placed + 1} initial pieces bot {(placed + 1) % 4 + 1} is due next, "
                  f"got {t.after['to_move']} in phase {t.after['phase']}")


# --- turns -------------------------------------------------------------------------------

def next_to_move(before: JSON, profile: Profile) -> int:
    nxt = before["to_move"] % 4 + 1
    if frozen_turns_count(profile):
        return int(nxt)
    for _ in range(4):
        if not before["frozen"][nxt - 1]:
            break
        nxt = nxt % 4 + 1
    return int(nxt)


def turn_order(t: Transition, profile: Profile) -> Verdict:
    if t.after["phase"] == "over" or t.before["phase"] not in ("move", "neutral"):
        return NA
    if t.before["phase"] == "move":
        return expect(t.after["to_move"] == t.before["to_move"],
                      f"bot {t.before['to_move']} has not finished its turn (neutral step due) "
                      f"but bot {t.after['to_move']} is to move")
    want = next_to_move(t.before, profile)
    return expect(t.after["to_move"] == want,
                  f"after bot {t.before['to_move']}'s turn bot {want} is next, "
                  f"got bot {t.after['to_move']}")


def turn_order_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    phase = PHASE_OF.get(str(action.get("type")))
    if phase is None or phase == state["phase"]:
        return NA
    return expect(not accepted, f"a {action.get('type')} action accepted in phase "
                                f"{state['phase']}: nobody may act out of turn")


# --- moves -------------------------------------------------------------------------------

def move_valid_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "move" or action.get("type") != "move":
        return NA
    facts = move_facts(state, action)
    if facts is None:
        return expect(not accepted, f"move {action} goes off the board but was accepted")
    if facts.wrap_dependent:
        return NA
    ok, bot = facts.valid, state["to_move"]
    return expect(accepted == ok, f"move {action['from']} -> {action['to']} of bot {bot} is "
                  f"{'valid' if ok else 'invalid'} but the engine "
                  f"{'accepted' if accepted else 'refused'} it")


def move_valid_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "move":
        return NA
    facts = move_facts(t.before, t.action)
    if facts is None:
        return Violation("a move off the board was applied")
    o, d, bot = facts.origin, facts.dest, _bot(t)
    if not facts.valid:
        return Violation(f"invalid move {t.action['from']} -> {t.action['to']} of bot {bot} "
                         "was applied")
    a = t.after["board"]
    return expect(a[o] == "0" and a[d] == str(bot) and t.after["turn"] == t.before["turn"] + 1,
                  "a move must empty its origin, fill its destination and count one turn")


def move_valid_referee(state: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    parsed = _parse_reply(state, text)
    if parsed is None or parsed[0] == parsed[1] or state["phase"] != "move":
        return NA
    o, d = parsed
    bot = state["to_move"]
    if wrap_dependent(state, o, d, bot):
        return NA
    want = "move" if move_valid(state, o, d, bot) else "invalid"
    return expect(action.get("type") == want,
                  f"reply {text.strip()!r} is {'a valid' if want == 'move' else 'an invalid'} "
                  f"move, but the referee made it {action}")


def nomove_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "move" or action.get("type") != "pass":
        return NA
    return expect(accepted, "a no move (origin = destination) is always allowed, "
                            "but the engine refused it")


def nomove_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "pass":
        return NA
    return expect(_same_board(t) and t.after["turn"] == t.before["turn"] + 1,
                  "a no move must leave the board as it is and count one turn")


def invalid_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "move" or action.get("type") != "invalid":
        return NA
    return expect(accepted, "an invalid reply must be handled, but the engine refused it")


def invalid_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "invalid":
        return NA
    bot = _bot(t)
    dq = profile.variant("FLIT-MOVE-INVALID") == "disqualify"
    if not (_same_board(t) and t.after["turn"] == t.before["turn"] + 1):
        return Violation("an invalid reply must leave the board as it is and count one turn")
    return expect(t.after["frozen"][bot - 1] == (dq or t.before["frozen"][bot - 1]),
                  f"under '{profile.variant('FLIT-MOVE-INVALID')}' an invalid reply "
                  f"{'freezes' if dq else 'does not freeze'} the bot")


def convert_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "move":
        return NA
    squares = move_squares(t.before, t.action)
    if squares is None:
        return NA
    o, d = squares
    bot = str(_bot(t))
    before = t.before["board"]
    want = {n for n in nbrs(t.before)[d] if before[n] == "5"}
    expected = patched(before, {o: "0", d: bot} | dict.fromkeys(want, bot))
    if expected == t.after["board"]:
        return OK
    diff = changed(before, t.after["board"])
    got = {i for i, c in diff.items() if c == bot and before[i] == "5"}
    stray = set(diff) - {o, d} - want
    if got == want and not stray:
        return OK  # the move itself went wrong: FLIT-MOVE-VALID's business
    return Violation(f"neutrals next to the destination {sorted(want)} must all convert; "
                     f"converted {sorted(got)}, other changes {sorted(stray)}")


# --- neutrals ----------------------------------------------------------------------------

def neutral_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    kind = action.get("type")
    if state["phase"] != "neutral" or kind not in ("neutral", "neutral-list"):
        return NA
    variant = profile.variant("FLIT-NEUTRAL-ADD")
    if (kind == "neutral") != (variant == "square-1-in-16"):
        return expect(not accepted, f"a {kind} outcome is not an outcome under {variant}")
    at = action["at"]
    i = None if at is None else index(state, at)
    if at is not None and i is None:
        return expect(not accepted, f"neutral square {at} is off the board")
    adds = action["hit"] if kind == "neutral" else at is not None
    if kind == "neutral-list" and at is not None:
        ok = i is not None and available(state, i)
    else:
        ok = not adds or (i is not None and available(state, i))
    return expect(accepted == ok, f"neutral outcome {action} is "
                  f"{'possible' if ok else 'impossible'} but the engine "
                  f"{'accepted' if accepted else 'refused'} it")


def neutral_check(t: Transition, profile: Profile) -> Verdict:
    kind = _kind(t)
    if kind not in ("neutral", "neutral-list"):
        return NA
    at = t.action["at"]
    adds = t.action["hit"] if kind == "neutral" else at is not None
    before, after = t.before["board"], t.after["board"]
    if not adds:
        return expect(before == after, "no neutral was due, but the board changed at "
                      f"{sorted(changed(before, after))}")
    i = index(t.before, at)
    ok = i is not None and available(t.before, i) and patched(before, {i: "5"}) == after
    return expect(ok, f"one neutral on the available square {at} was due; board changed by "
                      f"{changed(before, after)}")


# --- timing ------------------------------------------------------------------------------

def time_limit(t: Transition, profile: Profile) -> Verdict:
    kind = _kind(t)
    if t.before["phase"] != "move" or kind not in PLAYER_ACTIONS:
        return NA
    bot = _bot(t)
    want = list(t.before["timeouts"])
    want[bot - 1] = want[bot - 1] + 1 if kind == "timeout" else 0
    if kind == "timeout" and not (_same_board(t) and t.after["turn"] == t.before["turn"] + 1):
        return Violation("a time-out is a no move: the board stays, one turn is counted")
    return expect(t.after["timeouts"] == want,
                  f"after a {kind} the run of time-outs should be {want}, "
                  f"got {t.after['timeouts']}")


def freeze(t: Transition, profile: Profile) -> Verdict:
    kind, b, a = _kind(t), t.before, t.after
    limit = profile.param("FLIT-FREEZE", "consecutive_timeouts")
    want = list(b["frozen"])
    applicable = False
    if kind == "timeout":
        bot = _bot(t)
        want[bot - 1] = want[bot - 1] or b["timeouts"][bot - 1] + 1 >= limit
        applicable = True
    elif kind == "invalid":
        # whether an invalid reply freezes is FLIT-MOVE-INVALID's business
        want[_bot(t) - 1] = a["frozen"][_bot(t) - 1]
    if a["frozen"] != want:
        return Violation(f"frozen bots should be {want}, got {a['frozen']}")
    if a["phase"] == "move" and a["frozen"][a["to_move"] - 1]:
        return Violation(f"bot {a['to_move']} is frozen but is asked to move")
    if b["phase"] == "neutral" and a["phase"] != "over":
        nxt = b["to_move"] % 4 + 1
        if b["frozen"][nxt - 1]:
            applicable = True
            if frozen_turns_count(profile):
                return expect(a["phase"] == "neutral" and a["to_move"] == nxt
                              and a["turn"] == b["turn"] + 1,
                              f"frozen bot {nxt}'s turn must pass as a no move with its "
                              f"neutral step; got phase {a['phase']}, turn {a['turn']}")
            return expect(a["turn"] == b["turn"], "a skipped frozen turn is not a turn")
        if a["turn"] != b["turn"]:
            return Violation("the neutral step counted a turn although no frozen bot was due")
    return OK if applicable else NA


# --- the end -----------------------------------------------------------------------------

class CheckPoint(NamedTuple):
    turn: int
    passes: int
    frozen: list[bool]
    board: str


def _point(s: JSON) -> CheckPoint:
    return CheckPoint(s["turn"], s["passes"], s["frozen"], s["board"])


def end_points(t: Transition, profile: Profile) -> list[CheckPoint]:
    """The moments inside `t` at which the end conditions were due to be checked."""
    b, a = t.before, t.after
    after_move = profile.variant("FLIT-END-TIMING") == "after-move"
    if b["phase"] not in ("move", "neutral"):
        return []
    if a["phase"] == "over":
        return [_point(a)]
    if b["phase"] == "move":
        return [_point(a)] if after_move else []
    points = [] if after_move else [CheckPoint(b["turn"], b["passes"], b["frozen"], a["board"])]
    if after_move and a["turn"] == b["turn"] + 1:  # a frozen bot's turn, checked at once
        points.append(_point(a))
    return points


def catchup_holds(p: CheckPoint, state: JSON, profile: Profile) -> bool:
    """Some bot has D > max(others) + P. Only the two largest counts matter: the leader
    against the runner-up, or (when P < 0) the runner-up against the leader."""
    _, _, second, first = sorted(bot_counts(p.board))
    spare = p.board.count("5") + p.board.count("0") - profile.param("FLIT-END-CATCHUP", "p_offset")
    return bool(first > second + spare or second > first + spare)


def allpass_holds(p: CheckPoint, state: JSON, profile: Profile) -> bool:
    return p.passes >= active_bots({"frozen": p.frozen}, profile)


def turncap_holds(p: CheckPoint, state: JSON, profile: Profile) -> bool:
    cap = profile.param("FLIT-END-TURNCAP", "max_turns")
    if profile.variant("FLIT-END-TURNCAP") == "literal-exceeds":
        return bool(p.turn > cap)
    return bool(p.turn >= cap)


def end_oracle(reason: str, holds: Any) -> Any:
    def check(t: Transition, profile: Profile) -> Verdict:
        points = end_points(t, profile)
        if not points:
            return NA
        if t.after["phase"] == "over":
            claimed = reason in t.after["result"]["reasons"]
            h = holds(points[0], t.after, profile)
            return expect(h == claimed, f"the '{reason}' end condition "
                          f"{'holds' if h else 'does not hold'} but the result "
                          f"{'lists' if claimed else 'does not list'} it")
        for p in points:
            if holds(p, t.after, profile):
                return Violation(f"the '{reason}' end condition holds at turn {p.turn}, "
                                 "but the game went on")
        return OK
    return check


def passes_bookkeeping(t: Transition, profile: Profile) -> Verdict:
    kind, b, a = _kind(t), t.before, t.after
    any_no_move = profile.variant("FLIT-END-ALLPASS") == "any-no-move"
    if b["phase"] == "move" and kind in PLAYER_ACTIONS:
        if kind == "move":
            want = 0
        elif kind == "pass" or any_no_move:
            want = b["passes"] + 1
        else:
            want = 0
        return expect(a["passes"] == want, f"after a {kind} the run of turns without a real "
                      f"move should be {want}, got {a['passes']}")
    if b["phase"] == "neutral":
        # a frozen bot's turn followed (under after-move the game may end right after it)
        frozen_turn = a["turn"] == b["turn"] + 1
        want = (b["passes"] + 1 if any_no_move else 0) if frozen_turn else b["passes"]
        if a["passes"] != want:
            return Violation(f"the run of turns without a real move should be {want}, "
                             f"got {a['passes']}")
    verdict: Verdict = _allpass_end(t, profile)
    return verdict


def end_timing(t: Transition, profile: Profile) -> Verdict:
    b, a = t.before, t.after
    if b["phase"] == "setup":
        return expect(a["phase"] != "over", "the game cannot end during setup")
    after_move = profile.variant("FLIT-END-TIMING") == "after-move"
    if b["phase"] == "move":
        if after_move:
            return NA
        return expect(a["phase"] == "neutral", "end conditions are checked after the neutral "
                      f"step, but the move left the game in phase {a['phase']}")
    if b["phase"] == "neutral" and after_move and a["phase"] == "over":
        return expect(a["turn"] == b["turn"] + 1, "under after-move the neutral step "
                      "ends the game only through a frozen bot's turn")
    return NA


def winner(t: Transition, profile: Profile) -> Verdict:
    if t.after["phase"] != "over" or t.before["phase"] == "over":
        return NA
    counts = bot_counts(t.after["board"])
    result = t.after["result"]
    # two departures of this rule: the counts the result reports, and whom it names
    if result["counts"] != counts:
        return cause("counts", f"result counts {result['counts']} differ from the board's "
                               f"{counts}")
    best = max(counts)
    if counts.count(best) > 1:
        return NA
    if result["winner"] == counts.index(best) + 1:
        return OK
    return cause("winner", f"bot {counts.index(best) + 1} has the most pieces {counts}, "
                           f"result says winner {result['winner']}")


def winner_tie(t: Transition, profile: Profile) -> Verdict:
    if t.after["phase"] != "over" or t.before["phase"] == "over":
        return NA
    counts = bot_counts(t.after["board"])
    if counts.count(max(counts)) < 2:
        return NA
    return expect(t.after["result"]["winner"] is None,
                  f"bots tie for first with {counts}: nobody wins, "
                  f"result says winner {t.after['result']['winner']}")


# --- protocol ----------------------------------------------------------------------------

_NUMBER = r"(-?[0-9]+)"
_SEP = r"[ \t]+"
_LINE = re.compile(rf"[ \t]*{_NUMBER}{_SEP}{_NUMBER}{_SEP}{_NUMBER}{_SEP}{_NUMBER}[ \t]*(\r?\n)?",
                   re.ASCII)


def _parse_reply(state: JSON, text: str) -> tuple[int, int] | None:
    """(origin, destination) of a well-formed, on-board reply; None otherwise."""
    m = _LINE.fullmatch(text)
    if m is None:
        return None
    numbers = m.groups()[:4]
    if any(len(n.lstrip("-").lstrip("0")) > 12 for n in numbers):
        return None  # its value is off any board, however it is written
    x0, y0, x1, y1 = (int(n) for n in numbers)
    o, d = index(state, [x0, y0]), index(state, [x1, y1])
    return None if o is None or d is None else (o, d)


def proto_reply(state: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    if state["phase"] != "move":
        return NA
    parsed = _parse_reply(state, text)
    if parsed is None:
        return expect(action.get("type") == "invalid",
                      f"reply {text!r} is not four on-board whole numbers, "
                      f"but the referee made it {action}")
    if parsed[0] == parsed[1]:
        return expect(action.get("type") == "pass",
                      f"reply {text.strip()!r} names one square twice: a no move, "
                      f"but the referee made it {action}")
    return NA


def proto_updates(t: Transition, profile: Profile) -> Verdict:
    """Every changed square must be named by an event, so bots can be sent updates."""
    want: dict[int, str] = {}
    s = t.before
    try:
        for e in t.events:
            kind = e["type"]
            if kind in ("piece-placed", "converted"):
                want[_at(s, e["at"])] = str(e["bot"])
            elif kind == "moved":
                want[_at(s, e["from"])] = "0"
                want[_at(s, e["to"])] = str(e["bot"])
            elif kind == "neutral-added":
                want[_at(s, e["at"])] = "5"
    except (KeyError, TypeError, ValueError) as exc:
        return Violation(f"an event cannot be read as a board update: {exc!r}")
    before, after = t.before["board"], t.after["board"]
    if not want and before == after:
        return NA
    if patched(before, want) == after and all(before[i] != c for i, c in want.items()):
        return OK
    return Violation(f"squares changed {changed(before, after)}, events announce {want}")


def _at(state: JSON, xy: JSON) -> int:
    i = index(state, xy)
    if i is None:
        raise ValueError(f"square {xy} off the board")
    return i


_allpass_end = end_oracle("all-pass", allpass_holds)

_turncap_end = end_oracle("turn-cap", turncap_holds)
_catchup_end = end_oracle("catch-up", catchup_holds)

# Each check below is its plain function above, answered from one shared look at the step
# (`fast.verdicts`) where that look shows what the plain function would answer.
ORACLES: list[Oracle] = [
    Oracle("FLIT-BOARD-SIZE", state=board_size),
    Oracle("FLIT-BOARD-TORUS", check=_fast("FLIT-BOARD-TORUS", torus_check), judge=torus_judge,
           referee=torus_referee, on=frozenset({"move"})),
    Oracle("FLIT-SETUP-AVAILABLE", check=setup_available_check, judge=setup_available_judge,
           weights=chance.setup_weights, on=SETUP),
    Oracle("FLIT-SETUP-ORDER", check=setup_order, on=SETUP),
    Oracle("FLIT-TURN-ORDER", check=_fast("FLIT-TURN-ORDER", turn_order), judge=turn_order_judge,
           on=MOVE | NEUTRAL),
    Oracle("FLIT-MOVE-VALID", check=_fast("FLIT-MOVE-VALID", move_valid_check),
           judge=move_valid_judge, referee=move_valid_referee, on=frozenset({"move"})),
    Oracle("FLIT-MOVE-NOMOVE", check=_fast("FLIT-MOVE-NOMOVE", nomove_check), judge=nomove_judge,
           on=frozenset({"pass"})),
    Oracle("FLIT-MOVE-INVALID", check=invalid_check, judge=invalid_judge,
           on=frozenset({"invalid"})),
    Oracle("FLIT-CONVERT", check=_fast("FLIT-CONVERT", convert_check), on=frozenset({"move"})),
    Oracle("FLIT-NEUTRAL-ADD", check=_fast("FLIT-NEUTRAL-ADD", neutral_check),
           judge=neutral_judge, weights=chance.neutral_weights, on=NEUTRAL),
    Oracle("FLIT-TIME-LIMIT", check=_fast("FLIT-TIME-LIMIT", time_limit), on=MOVE),
    Oracle("FLIT-FREEZE", check=_fast("FLIT-FREEZE", freeze)),
    Oracle("FLIT-END-TURNCAP", check=_fast("FLIT-END-TURNCAP", _turncap_end)),
    Oracle("FLIT-END-ALLPASS", check=_fast("FLIT-END-ALLPASS", passes_bookkeeping)),
    Oracle("FLIT-END-CATCHUP", check=_fast("FLIT-END-CATCHUP", _catchup_end)),
    Oracle("FLIT-END-TIMING", check=_fast("FLIT-END-TIMING", end_timing)),
    Oracle("FLIT-WINNER", check=_fast("FLIT-WINNER", winner)),
    Oracle("FLIT-WINNER-TIE", check=_fast("FLIT-WINNER-TIE", winner_tie)),
    Oracle("FLIT-PROTO-REPLY", referee=proto_reply),
    Oracle("FLIT-PROTO-UPDATES", check=_fast("FLIT-PROTO-UPDATES", proto_updates)),
]

# One look at the step for the checks it can answer (the lockstep's shared prejudgement):
# the same answers the wrapped checks give, asked once per step.
PREJUDGE = (fast.RULES, fast.verdicts)
