"""Flit oracles: one or more per rule id of `spec/flit.json`.

Each oracle restates its rule over canonical JSON and owns one aspect of a transition, so an
engine that breaks one rule trips that rule's oracle and no other. Each names the kind of
departure it sees (`cause`: a conversion missed, or in another colour; a move accepted for
each way it is invalid...), with the fields that differ in its words, so two departures
under one rule are two findings.

A bot's step is judged as an engine replies to it: stopping before the neutral step (an
engine that takes chance outcomes as actions) or as a whole turn, the neutral step and any
frozen bots' turns included (an engine that draws for itself: `oracles.flit.turn`). Only
FLIT-PROTO-UPDATES reads the step's events: it is about the updates themselves, so it has
no state-only form, and an engine without events leaves it unchecked.
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
    cause,
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
from gamecert.oracles.flit.turn import (
    frozen_turns_inside,
    move_board,
    new_neutrals,
    next_active,
    own_turn_counted,
    passed_over,
    whole_turn,
)
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


# --- board -------------------------------------------------------------------------------

@cache
def _size(profile: Profile) -> tuple[int, int]:
    return profile.param("FLIT-BOARD-SIZE", "width"), profile.param("FLIT-BOARD-SIZE", "height")


def board_size(s: JSON, profile: Profile) -> Verdict:
    w, h = _size(profile)
    if s["width"] == w and s["height"] == h and len(s["board"]) == w * h:
        return OK  # every state of every step comes here: no message is written for it
    if (s["width"], s["height"]) != (w, h):
        return cause("dimensions", f"width x height is {s['width']}x{s['height']}; the rule "
                                   f"says {w}x{h}")
    return cause("squares", f"board has {len(s['board'])} squares for {w}x{h} "
                            f"({w * h} squares)")


def torus_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "move" or action.get("type") != "move":
        return NA
    facts = move_facts(state, action)
    if facts is None or not facts.wrap_dependent:
        return NA
    o, d = facts.origin, facts.dest
    if state["board"][o] != str(state["to_move"]) or state["board"][d] != "0":
        return NA
    if accepted:
        return OK
    return cause("refused-across-wrap", f"move {action['from']} -> {action['to']} refused, "
                 "but the destination touches another own piece across the board's wrap")


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
    if action.get("type") == "move":
        return OK
    return cause("referee-across-wrap", f"reply {text.strip()!r} is a legal move across the "
                 f"wrap, but the referee made it {action}")


# --- setup -------------------------------------------------------------------------------

def setup_available_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "setup" or action.get("type") != "setup":
        return NA
    i = index(state, action["at"])
    ok = i is not None and available(state, i)
    if accepted == ok:
        return OK
    return cause("accepted-unavailable" if accepted else "refused-available",
                 f"setup square {action['at']} is {'available' if ok else 'not available'} "
                 f"but the engine {'accepted' if accepted else 'refused'} it")


def setup_available_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "setup":
        return NA
    i = index(t.before, t.action["at"])
    if i is not None and available(t.before, i):
        return OK
    return cause("placed-unavailable", f"initial piece put on {t.action['at']}, which was "
                                       "not available")


def setup_order(t: Transition, profile: Profile) -> Verdict:
    if t.before["phase"] != "setup":
        return NA
    per_bot = profile.param("FLIT-SETUP-ORDER", "pieces_per_bot")
    placed = len(t.before["board"]) - t.before["board"].count("0")
    due = placed % 4 + 1
    diff = changed(t.before["board"], t.after["board"])
    if t.before["to_move"] != due:
        return cause("bot-due", f"after {placed} initial pieces bot {due} is due, "
                                f"to_move says bot {t.before['to_move']}")
    if list(diff.values()) != [str(due)]:
        return cause("piece", f"initial piece {placed + 1} should be one piece of bot {due}, "
                              f"the board changed by {diff}")
    a = t.after
    if placed + 1 == per_bot * 4:
        got = {"phase": a["phase"], "to_move": a["to_move"], "turn": a["turn"],
               "neutrals": a["board"].count("5")}
        want = {"phase": "move", "to_move": 1, "turn": 0, "neutrals": 0}
        wrong = {k: v for k, v in got.items() if v != want[k]}
        if not wrong:
            return OK
        if a["phase"] == "setup":
            return cause("piece-count", f"bots get {per_bot} initial pieces each "
                         f"({per_bot * 4} in all); after {placed + 1} the set-up goes on")
        return cause("first-turn", "after the last initial piece bot 1 must move first, at "
                     f"turn 0, with no neutrals; got {wrong}")
    if a["phase"] == "setup" and a["to_move"] == (placed + 1) % 4 + 1:
        return OK
    if placed + 1 > per_bot * 4 or a["phase"] != "setup":
        return cause("piece-count", f"bots get {per_bot} initial pieces each "
                     f"({per_bot * 4} in all); after {placed + 1} the state says phase "
                     f"{a['phase']}")
    return cause("bot-due", f"after {placed + 1} initial pieces bot {(placed + 1) % 4 + 1} is "
                            f"due next, to_move says {a['to_move']}")


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
    b, a = t.before, t.after
    if a["phase"] == "over" or b["phase"] not in ("move", "neutral"):
        return NA
    if whole_turn(t):  # the bot's whole turn: the next bot not frozen is asked to move
        if a["phase"] == "neutral":  # up to a frozen bot's turn: each bot passed frozen
            between = passed_over(t) or []
            awake = [x for x in between if not a["frozen"][x - 1]]
            if not awake:
                return OK
            return cause("next-bot", f"after bot {b['to_move']}'s turn bot {awake[0]} is "
                         f"next (frozen: {a['frozen']}), to_move says bot {a['to_move']}")
        want = next_active(b, a["frozen"])
        if a["to_move"] == want:
            return OK
        return cause("next-bot", f"after bot {b['to_move']}'s turn bot {want} is next "
                     f"(frozen: {a['frozen']}), to_move says bot {a['to_move']}")
    if b["phase"] == "move":
        if a["to_move"] == b["to_move"]:
            return OK
        return cause("mid-turn", f"bot {b['to_move']} has not finished its turn (neutral "
                     f"step due) but to_move says bot {a['to_move']}")
    want = next_to_move(b, profile)
    if a["to_move"] == want:
        return OK
    return cause("next-bot", f"after bot {b['to_move']}'s turn bot {want} is next, "
                 f"to_move says bot {a['to_move']}")


def turn_order_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    phase = PHASE_OF.get(str(action.get("type")))
    if phase is None or phase == state["phase"]:
        return NA
    if not accepted:
        return OK
    return cause("out-of-phase", f"a {action.get('type')} action accepted in phase "
                 f"{state['phase']}: nobody may act out of turn")


# --- moves -------------------------------------------------------------------------------

def move_valid_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "move" or action.get("type") != "move":
        return NA
    facts = move_facts(state, action)
    if facts is None:
        if not accepted:
            return OK
        return cause("accepted-off-board", f"move {action['from']} -> {action['to']} goes "
                                           "off the board but was accepted")
    if (facts.wrap_dependent and facts.valid) or facts.origin == facts.dest:
        # a move valid only across the wrap is FLIT-BOARD-TORUS's; one square named twice
        # is a no move by the rules, whose canonical form is a pass
        return NA
    ok, bot = facts.valid, state["to_move"]
    if accepted == ok:
        return OK
    if not accepted:
        return cause("refused-valid", f"move {action['from']} -> {action['to']} of bot {bot} "
                                      "is valid but the engine refused it")
    why, text = why_invalid(state, facts.origin, facts.dest, bot)
    return cause(f"accepted-{why}", f"move {action['from']} -> {action['to']} of bot {bot} "
                 f"is invalid ({text}) but the engine accepted it")


def why_invalid(state: JSON, o: int, d: int, bot: int) -> tuple[str, str]:
    """Which part of FLIT-MOVE-VALID a move breaks: a cause tag and words for a message."""
    board, me = state["board"], str(bot)
    if o == d:
        return "no-move", "origin and destination are one square: a no move, not a move"
    if board[o] != me:
        return "not-own-origin", f"its origin holds {board[o]!r}, not a piece of bot {bot}"
    if board[d] != "0":
        return "occupied-destination", f"its destination holds {board[d]!r}, not an empty square"
    near = nbrs(state)[d]
    if o in near and not any(n != o and board[n] == me for n in near):
        return "lifted-piece", ("only the moving piece itself touches its destination (the "
                                "piece is lifted first)")
    w, h = state["width"], state["height"]
    x, y = d % w, d // w
    corners = [((y + dy) % h) * w + (x + dx) % w for dx in (-1, 1) for dy in (-1, 1)]
    if any(c != o and board[c] == me for c in corners):
        return "diagonal", "another piece of the bot touches its destination diagonally only"
    return "not-touching", "no other piece of the bot touches its destination"


def move_valid_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "move":
        return NA
    facts = move_facts(t.before, t.action)
    if facts is None:
        return cause("applied-off-board", "a move off the board was applied")
    o, d, bot = facts.origin, facts.dest, _bot(t)
    if not facts.valid:
        why, text = why_invalid(t.before, o, d, bot)
        return cause(f"applied-{why}", f"invalid move {t.action['from']} -> "
                     f"{t.action['to']} of bot {bot} was applied ({text})")
    a = t.after["board"]
    if a[o] != "0" or a[d] != str(bot):
        return cause("squares", f"a move empties its origin and puts the piece on its "
                     f"destination: origin holds {a[o]!r}, destination {a[d]!r}")
    if own_turn_counted(t, profile) is False:
        return cause("turn-count", f"a move counts one turn: turn {t.before['turn']} -> "
                                   f"{t.after['turn']}")
    return OK


def move_valid_referee(state: JSON, text: str, action: JSON, profile: Profile) -> Verdict:
    parsed = _parse_reply(state, text)
    if parsed is None or parsed[0] == parsed[1] or state["phase"] != "move":
        return NA
    o, d = parsed
    bot = state["to_move"]
    valid = move_valid(state, o, d, bot)
    if valid and wrap_dependent(state, o, d, bot):
        return NA  # FLIT-BOARD-TORUS's
    want = "move" if valid else "invalid"
    if action.get("type") == want:
        return OK
    return cause(f"referee-{'refused' if want == 'move' else 'accepted'}",
                 f"reply {text.strip()!r} is {'a valid' if want == 'move' else 'an invalid'} "
                 f"move, but the referee made it {action}")


def nomove_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "move" or action.get("type") != "pass":
        return NA
    if accepted:
        return OK
    return cause("refused", "a no move (origin = destination) is always allowed, "
                            "but the engine refused it")


def _board_kept(t: Transition) -> Verdict:
    """A no move of any kind leaves the board as it was (the neutral step after it may put
    a neutral down: its own rule's business)."""
    board = move_board(t)
    if board == t.before["board"]:
        return OK
    return cause("board-changed", f"a {_kind(t)} is no move, but the board changed at "
                 f"{_squares(t.before, changed(t.before['board'], board))}")


def _one_turn(t: Transition, profile: Profile) -> Verdict:
    if own_turn_counted(t, profile) is False:
        return cause("turn-count", f"a {_kind(t)} counts one turn: turn {t.before['turn']} "
                                   f"-> {t.after['turn']}")
    return OK


def _squares(state: JSON, changes: dict[int, str]) -> dict[str, str]:
    """Changed squares as "(x, y)": colour, for a message."""
    w = state["width"]
    return {f"({i % w}, {i // w})": c for i, c in sorted(changes.items())[:8]}


def nomove_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "pass":
        return NA
    kept = _board_kept(t)
    return kept if kept is not OK else _one_turn(t, profile)


def invalid_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    if state["phase"] != "move" or action.get("type") != "invalid":
        return NA
    if accepted:
        return OK
    return cause("refused", "an invalid reply must be handled, but the engine refused it")


def invalid_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "invalid":
        return NA
    bot = _bot(t)
    dq = profile.variant("FLIT-MOVE-INVALID") == "disqualify"
    for verdict in (_board_kept(t), _one_turn(t, profile)):
        if verdict is not OK:
            return verdict
    want = dq or t.before["frozen"][bot - 1]
    if t.after["frozen"][bot - 1] == want:
        return OK
    return cause("freezes" if not want else "not-frozen",
                 f"under '{profile.variant('FLIT-MOVE-INVALID')}' an invalid reply "
                 f"{'freezes' if dq else 'does not freeze'} the bot: frozen[{bot - 1}] is "
                 f"{t.after['frozen'][bot - 1]}")


def convert_check(t: Transition, profile: Profile) -> Verdict:
    if _kind(t) != "move":
        return NA
    squares = move_squares(t.before, t.action)
    if squares is None:
        return NA
    o, d = squares
    bot = str(_bot(t))
    before = t.before["board"]
    near = nbrs(t.before)[d]
    want = {n for n in near if before[n] == "5"}
    after = t.after["board"]
    if patched(before, {o: "0", d: bot} | dict.fromkeys(want, bot)) == after:
        return OK
    # only what the rule is about: the neutrals before the move, and no captured piece
    # (the move's own two squares are FLIT-MOVE-VALID's, new neutrals FLIT-NEUTRAL-ADD's)
    board = move_board(t)
    diff = changed(before, board)
    missed = sorted(n for n in want if board[n] == "5")
    recoloured = sorted(n for n in want if board[n] not in ("5", bot))
    extra = sorted(i for i, c in diff.items() if before[i] == "5" and i not in want)
    captured = sorted(i for i, c in diff.items()
                      if before[i] in "1234" and i not in (o, d) and c != before[i])
    if missed:
        return cause("missed", f"the neutrals next to the destination {t.action['to']} take "
                     f"bot {bot}'s colour; still neutral: {_places(t.before, missed)}")
    if recoloured:
        return cause("wrong-colour", f"the neutrals next to the destination {t.action['to']} "
                     f"take the mover's colour {bot}; got "
                     f"{_squares(t.before, {i: board[i] for i in recoloured})}")
    if extra:
        return cause("not-next-to-destination", "only the neutrals next to the destination "
                     f"{t.action['to']} change; changed too: "
                     f"{_squares(t.before, {i: board[i] for i in extra})}")
    if captured:
        return cause("captured", "no piece of a bot's colour is ever captured; changed: "
                     f"{_squares(t.before, {i: board[i] for i in captured})}")
    return OK


def _places(state: JSON, squares: list[int]) -> list[tuple[int, int]]:
    w = state["width"]
    return [(i % w, i // w) for i in squares[:8]]


# --- neutrals ----------------------------------------------------------------------------

def neutral_judge(state: JSON, action: JSON, accepted: bool, profile: Profile) -> Verdict:
    kind = action.get("type")
    if state["phase"] != "neutral" or kind not in ("neutral", "neutral-list"):
        return NA
    variant = profile.variant("FLIT-NEUTRAL-ADD")
    if (kind == "neutral") != (variant == "square-1-in-16"):
        if not accepted:
            return OK
        return cause("other-reading", f"a {kind} outcome is not an outcome under {variant}")
    at = action["at"]
    i = None if at is None else index(state, at)
    if at is not None and i is None:
        if not accepted:
            return OK
        return cause("off-board", f"neutral square {at} is off the board")
    adds = action["hit"] if kind == "neutral" else at is not None
    if kind == "neutral-list" and at is not None:
        ok = i is not None and available(state, i)
    else:
        ok = not adds or (i is not None and available(state, i))
    if accepted == ok:
        return OK
    if accepted:
        return cause("on-unavailable", f"neutral outcome {action} puts a neutral on a square "
                     f"that is not available ({_unavailable(state, i)}) but the engine "
                     "accepted it")
    return cause("refused-possible", f"neutral outcome {action} is possible but the engine "
                                     "refused it")


def _unavailable(state: JSON, i: int | None) -> str:
    """Why square i is not available, for a message."""
    if i is None:
        return "off the board"
    board = state["board"]
    if board[i] != "0":
        return f"it holds {board[i]!r}"
    taken = [n for n in nbrs(state)[i] if board[n] != "0"]
    return f"its neighbours {_places(state, taken)} are not empty"


def neutral_check(t: Transition, profile: Profile) -> Verdict:
    kind = _kind(t)
    if kind in PLAYER_ACTIONS:
        return _turn_neutrals(t, profile)
    if kind not in ("neutral", "neutral-list"):
        return NA
    at = t.action["at"]
    adds = t.action["hit"] if kind == "neutral" else at is not None
    before, after = t.before["board"], t.after["board"]
    if not adds:
        if before == after:
            return OK
        return cause("not-drawn", "no neutral was drawn, but the board changed at "
                     f"{_squares(t.before, changed(before, after))}")
    i = index(t.before, at)
    if i is not None and available(t.before, i) and patched(before, {i: "5"}) == after:
        return OK
    if i is not None and not available(t.before, i):
        return cause("on-unavailable", f"a neutral was drawn on {at}, which is not available "
                     f"({_unavailable(t.before, i)})")
    return cause("not-as-drawn", f"one neutral on the available square {at} was drawn; "
                 f"board changed by {_squares(t.before, changed(before, after))}")


def _turn_neutrals(t: Transition, profile: Profile) -> Verdict:
    """A bot's whole turn (follow mode): each neutral its neutral steps put down went on a
    square available then, one at most per neutral step."""
    b, a = t.before, t.after
    if b["phase"] != "move" or a["phase"] == "neutral":
        return NA
    added = new_neutrals(b["board"], a["board"])
    if not added:
        return NA  # no neutral this turn: nothing of it to judge here
    extra = frozen_turns_inside(t, profile)
    steps = 1 + (extra or 0) if extra is not None else 4
    if len(added) > steps:
        return cause("too-many", f"{len(added)} neutrals put down in one turn "
                     f"{_places(b, added)}, one at most per neutral step ({steps})")
    board = a["board"]
    for i in added:
        if any(board[n] != "0" for n in nbrs(b)[i]):
            return cause("on-unavailable", f"a neutral was put on {_places(b, [i])[0]}, "
                         f"which was not available ({_unavailable(a, i)})")
    return OK


# --- timing ------------------------------------------------------------------------------

def time_limit(t: Transition, profile: Profile) -> Verdict:
    kind = _kind(t)
    if t.before["phase"] != "move" or kind not in PLAYER_ACTIONS:
        return NA
    bot = _bot(t)
    was = t.before["timeouts"]
    want = list(was)
    want[bot - 1] = want[bot - 1] + 1 if kind == "timeout" else 0
    if kind == "timeout":
        for verdict in (_board_kept(t), _one_turn(t, profile)):
            if verdict is not OK:
                return verdict
    got = t.after["timeouts"]
    if got == want:
        return OK
    if got[bot - 1] != want[bot - 1]:
        if kind == "timeout":
            return cause("run-not-counted", f"a time-out lengthens bot {bot}'s run of "
                         f"time-outs to {want[bot - 1]}; timeouts says {got}")
        return cause("run-not-reset", f"a reply in time ({kind}) resets bot {bot}'s run of "
                     f"time-outs to 0; timeouts was {was}, says {got}")
    return cause("other-bots", f"a {kind} of bot {bot} changes no other bot's run of "
                 f"time-outs: timeouts was {was}, says {got}")


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
        late = [i + 1 for i in range(4) if want[i] and not a["frozen"][i]]
        return cause("not-frozen" if late else "frozen-early",
                     f"frozen should be {want} (a bot freezes after {limit} time-outs in a "
                     f"row), got {a['frozen']}")
    if a["phase"] == "move" and a["frozen"][a["to_move"] - 1]:
        return cause("asked", f"bot {a['to_move']} is frozen but is asked to move")
    if whole_turn(t):
        return _frozen_turns(t, profile) if any(a["frozen"]) else (OK if applicable else NA)
    if b["phase"] == "neutral" and a["phase"] != "over":
        nxt = b["to_move"] % 4 + 1
        if b["frozen"][nxt - 1]:
            if frozen_turns_count(profile):
                if a["phase"] == "neutral" and a["to_move"] == nxt and \
                        a["turn"] == b["turn"] + 1:
                    return OK
                return cause("frozen-turn", f"frozen bot {nxt}'s turn passes as a no move "
                             "with its neutral step: phase neutral, to_move "
                             f"{nxt}, turn {b['turn'] + 1}; got phase {a['phase']}, to_move "
                             f"{a['to_move']}, turn {a['turn']}")
            if a["turn"] == b["turn"]:
                return OK
            return cause("skipped-turn", f"a skipped frozen turn is not a turn: turn "
                         f"{b['turn']} -> {a['turn']}")
        if a["turn"] != b["turn"]:
            return cause("turn-count", "the neutral step counted a turn although no frozen "
                         f"bot was due: turn {b['turn']} -> {a['turn']}")
    return OK if applicable else NA


def _frozen_turns(t: Transition, profile: Profile) -> Verdict:
    """A bot's whole turn (follow mode) past frozen bots: each frozen bot's turn counted as
    a turn (turn-as-no-move) or not at all (skipped)."""
    between = passed_over(t)
    if not between or any(not t.after["frozen"][x - 1] for x in between):
        return NA  # none passed over, or a bot passed over is not frozen: turn order's
    b, a = t.before, t.after
    want = b["turn"] + 1 + (len(between) if frozen_turns_count(profile) else 0)
    if a["turn"] == want:
        return OK
    return cause("frozen-turn" if frozen_turns_count(profile) else "skipped-turn",
                 f"bot {b['to_move']}'s turn, then frozen bots {between}: under "
                 f"'{profile.variant('FLIT-FREEZE')}' turn {b['turn']} -> {want}, got "
                 f"{a['turn']}")


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
        # a bot's whole turn (follow mode): the neutral step changes no end condition (a
        # neutral takes an empty square: N + E, the counts, the turn and the run of no
        # moves stay), so the state after it stands for the check after the move too. A
        # whole turn up to a frozen bot's neutral step, under after-neutral: its checks
        # came before that bot's turn, at states the step does not show: none judged
        return [_point(a)] if after_move or a["phase"] == "move" else []
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


def catchup_text(p: CheckPoint, profile: Profile) -> str:
    counts = bot_counts(p.board)
    offset = profile.param("FLIT-END-CATCHUP", "p_offset")
    spare = p.board.count("5") + p.board.count("0") - offset
    return f"counts {counts}, P = N + E - {offset} = {spare}"


def allpass_text(p: CheckPoint, profile: Profile) -> str:
    return f"passes {p.passes}, frozen {p.frozen}"


def turncap_text(p: CheckPoint, profile: Profile) -> str:
    return f"turn {p.turn}, max_turns {profile.param('FLIT-END-TURNCAP', 'max_turns')}"


def allpass_holds(p: CheckPoint, state: JSON, profile: Profile) -> bool:
    return p.passes >= active_bots({"frozen": p.frozen}, profile)


def turncap_holds(p: CheckPoint, state: JSON, profile: Profile) -> bool:
    cap = profile.param("FLIT-END-TURNCAP", "max_turns")
    if profile.variant("FLIT-END-TURNCAP") == "literal-exceeds":
        return bool(p.turn > cap)
    return bool(p.turn >= cap)


def end_oracle(reason: str, holds: Any, describe: Any) -> Any:
    def check(t: Transition, profile: Profile) -> Verdict:
        points = end_points(t, profile)
        if not points:
            return NA
        if t.after["phase"] == "over":
            claimed = reason in t.after["result"]["reasons"]
            h = holds(points[0], t.after, profile)
            if h == claimed:
                return OK
            return cause("not-listed" if h else "ended-early",
                         f"the '{reason}' end condition {'holds' if h else 'does not hold'} "
                         f"({describe(points[0], profile)}) but the result's reasons "
                         f"{t.after['result']['reasons']} {'leave it out' if h else 'list it'}")
        for p in points:
            if holds(p, t.after, profile):
                return cause("went-on", f"the '{reason}' end condition holds at turn {p.turn} "
                             f"({describe(p, profile)}), but the game went on")
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
        extra = frozen_turns_inside(t, profile) if a["phase"] in ("move", "over") else 0
        if extra is None and not (a["phase"] == "over" and a["turn"] == b["turn"] + 1):
            ended: Verdict = _allpass_end(t, profile)  # frozen turns inside, untold
            return ended
        if extra:  # a whole turn (follow mode) past frozen bots' turns, each a no move
            want = want + extra if any_no_move else 0
        if a["passes"] != want:
            return cause(f"after-{kind}", f"after a {kind} the run of turns without a real "
                         f"move is {want}, passes says {a['passes']}")
        ended = _allpass_end(t, profile)
        return OK if ended is NA else ended
    elif b["phase"] == "neutral":
        # a frozen bot's turn followed (under after-move the game may end right after it)
        frozen_turn = a["turn"] == b["turn"] + 1
        want = (b["passes"] + 1 if any_no_move else 0) if frozen_turn else b["passes"]
        if a["passes"] != want:
            return cause("after-frozen-turn" if frozen_turn else "neutral-step",
                         f"the run of turns without a real move is {want}, passes says "
                         f"{a['passes']}")
    verdict: Verdict = _allpass_end(t, profile)
    return verdict


def end_timing(t: Transition, profile: Profile) -> Verdict:
    b, a = t.before, t.after
    if b["phase"] == "setup":
        if a["phase"] != "over":
            return OK
        return cause("ended-in-setup", "the game cannot end during setup")
    after_move = profile.variant("FLIT-END-TIMING") == "after-move"
    if b["phase"] == "move":
        if after_move or a["phase"] == "move":
            return NA  # a whole turn (follow mode): when it was checked does not show
        if a["phase"] == "neutral":
            return OK
        return cause("ended-at-move", "end conditions are checked after the neutral step, "
                     f"but the move left the game in phase {a['phase']}")
    if b["phase"] == "neutral" and after_move and a["phase"] == "over":
        if a["turn"] == b["turn"] + 1:
            return OK
        return cause("ended-at-neutral", "under after-move the neutral step ends the game "
                     "only through a frozen bot's turn")
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
    if t.after["result"]["winner"] is None:
        return OK
    return cause("winner-named", f"bots tie for first with {counts}: nobody wins, "
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
        if action.get("type") == "invalid":
            return OK
        return cause("unreadable-accepted", f"reply {text!r} is not four on-board whole "
                     f"numbers, but the referee made it {action}")
    if parsed[0] == parsed[1]:
        if action.get("type") == "pass":
            return OK
        return cause("no-move-misread", f"reply {text.strip()!r} names one square twice: a "
                     f"no move, but the referee made it {action}")
    return NA


def proto_updates(t: Transition, profile: Profile) -> Verdict:
    """Every changed square must be named by an event, so bots can be sent updates. It reads
    the events only: an engine that sends none gives it nothing to judge (no state-only
    form: the rule is about the updates themselves)."""
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
        return cause("unreadable", f"an event cannot be read as a board update: {exc!r}")
    before, after = t.before["board"], t.after["board"]
    if not want and before == after:
        return NA
    if patched(before, want) == after and all(before[i] != c for i, c in want.items()):
        return OK
    diff = changed(before, after)
    missing = {i: c for i, c in diff.items() if want.get(i) != c}
    if missing:
        return cause("unannounced", "every changed square reaches the bots as an update; "
                     f"not announced: {_squares(s, missing)}")
    idle = {i: c for i, c in want.items() if i not in diff or before[i] == c}
    return cause("announced-unchanged", "updates name only squares that changed colour; "
                 f"announced: {_squares(s, idle)}")


def _at(state: JSON, xy: JSON) -> int:
    i = index(state, xy)
    if i is None:
        raise ValueError(f"square {xy} off the board")
    return i


_allpass_end = end_oracle("all-pass", allpass_holds, allpass_text)
_turncap_end = end_oracle("turn-cap", turncap_holds, turncap_text)
_catchup_end = end_oracle("catch-up", catchup_holds, catchup_text)

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
    # at a bot's step too: a whole turn (follow mode) holds its neutral step
    Oracle("FLIT-NEUTRAL-ADD", check=_fast("FLIT-NEUTRAL-ADD", neutral_check),
           judge=neutral_judge, weights=chance.neutral_weights, on=NEUTRAL | MOVE),
    Oracle("FLIT-TIME-LIMIT", check=_fast("FLIT-TIME-LIMIT", time_limit), on=MOVE),
    Oracle("FLIT-FREEZE", check=_fast("FLIT-FREEZE", freeze)),
    Oracle("FLIT-END-TURNCAP", check=_fast("FLIT-END-TURNCAP", _turncap_end)),
    Oracle("FLIT-END-ALLPASS", check=_fast("FLIT-END-ALLPASS", passes_bookkeeping)),
    Oracle("FLIT-END-CATCHUP", check=_fast("FLIT-END-CATCHUP", _catchup_end)),
    Oracle("FLIT-END-TIMING", check=_fast("FLIT-END-TIMING", end_timing)),
    Oracle("FLIT-WINNER", check=_fast("FLIT-WINNER", winner)),
    Oracle("FLIT-WINNER-TIE", check=_fast("FLIT-WINNER-TIE", winner_tie)),
    Oracle("FLIT-PROTO-REPLY", referee=proto_reply),
    Oracle("FLIT-PROTO-UPDATES", check=_fast("FLIT-PROTO-UPDATES", proto_updates),
           reads_events=True),
]

# One look at the step for the checks it can answer (the lockstep's shared prejudgement):
# the same answers the wrapped checks give, asked once per step.
PREJUDGE = (fast.RULES, fast.verdicts)
