"""The Flit checks of the board and its chance steps: the board's size (FLIT-BOARD-SIZE),
the set-up (FLIT-SETUP-AVAILABLE, FLIT-SETUP-ORDER) and the neutral square added after each
turn (FLIT-NEUTRAL-ADD, in a bot's step too when the engine plays whole turns).

On canonical JSON only, never the reference engine; the chance steps' weights are
`chance`'s. Binds no rule id to a check: the package's `ORACLES` does.
"""

from __future__ import annotations

from gamecert.oracles.base import NA, OK, Transition, Verdict, cause
from gamecert.oracles.flit.board import available, changed, index, nbrs, patched
from gamecert.oracles.flit.common import JSON, PLAYER_ACTIONS, _kind, _places, _size, _squares
from gamecert.oracles.flit.turn import frozen_turns_inside, new_neutrals
from gamecert.spec import Profile


def board_size(s: JSON, profile: Profile) -> Verdict:
    w, h = _size(profile)
    if s["width"] == w and s["height"] == h and len(s["board"]) == w * h:
        return OK  # every state of every step comes here: no message is written for it
    if (s["width"], s["height"]) != (w, h):
        return cause("dimensions", f"width x height is {s['width']}x{s['height']}; the rule "
                                   f"says {w}x{h}")
    return cause("squares", f"board has {len(s['board'])} squares for {w}x{h} "
                            f"({w * h} squares)")


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
