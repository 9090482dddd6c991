"""A bot's step as the oracles see it, whether it stops at the neutral step or takes the
whole turn in.

An engine that takes chance outcomes as actions answers a bot's action with the state
before the neutral step (phase `neutral`). An engine that draws for itself (follow mode,
as real engines do) answers with the whole turn: the action, the neutral step drawn after
it, and any frozen bots' turns with their own neutral steps, up to the next bot asked to
move (phase `move`) or the end. The oracles judge both: each reads from here the part of
the step its rule is about, and leaves the other parts to their own rules (a neutral the
neutral step put down is never a no move's or a conversion's business).

Reads canonical JSON only; judges nothing itself.
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import Transition
from gamecert.spec import Profile

JSON = Any


def whole_turn(t: Transition) -> bool:
    """The step took a bot's whole turn in (its action, the neutral step after it and the
    turns of frozen bots), and the game goes on: up to the next bot asked to move, or (an
    engine that reported fewer draws than the turn holds: the reference's own step then)
    up to a frozen bot's turn taken as a no move, its neutral step still to come."""
    b, a = t.before, t.after
    return bool(b["phase"] == "move" and (a["phase"] == "move" or (
        a["phase"] == "neutral" and a["turn"] > b["turn"] + 1
        and a["to_move"] != b["to_move"])))


def _partial(t: Transition) -> bool:
    """A whole turn that stops at a frozen bot's neutral step (see `whole_turn`)."""
    return bool(t.after["phase"] == "neutral")


def new_neutrals(before: str, after: str) -> list[int]:
    """Squares that went from empty to neutral: only a neutral step puts a neutral down."""
    if before == after or "5" not in after:
        return []
    out, i = [], after.find("5")
    while i >= 0:
        if before[i] == "0":
            out.append(i)
        i = after.find("5", i + 1)
    return out


def move_board(t: Transition) -> str:
    """The board after a bot's action alone: the board after the step with the neutrals
    the neutral steps put down taken away again (a move, a no move or a conversion never
    puts a neutral down, so any new one is the neutral step's)."""
    before, after = t.before["board"], t.after["board"]
    added = new_neutrals(before, after)
    if not added:
        return str(after)
    board = list(after)
    for i in added:
        board[i] = "0"
    return "".join(board)


def frozen_turns_count(profile: Profile) -> bool:
    return bool(profile.variant("FLIT-FREEZE") == "turn-as-no-move")


def passed_over(t: Transition) -> list[int] | None:
    """The bots whose turns came between the mover's and the bot asked to move after a
    whole turn (each must be frozen), in order; None when the step is not a whole turn."""
    if not whole_turn(t):
        return None if t.after["phase"] != "neutral" else []
    mover, nxt = t.before["to_move"], t.after["to_move"]
    out, bot = [], mover % 4 + 1
    while bot != nxt and bot != mover:
        out.append(bot)
        bot = bot % 4 + 1
    if _partial(t) and nxt != mover:
        out.append(nxt)  # its turn taken as a no move, its neutral step to come
    return out


def frozen_turns_inside(t: Transition, profile: Profile) -> int | None:
    """How many frozen bots' turns a bot's step took in after the bot's own (each a turn
    as a no move, under FLIT-FREEZE = turn-as-no-move); None when that cannot be told (the
    game ended inside the step, or a bot passed over was not frozen: the turn order's
    business)."""
    between = passed_over(t)
    if between is None:
        return None
    frozen = t.after["frozen"]
    if any(not frozen[b - 1] for b in between):
        return None
    return len(between) if frozen_turns_count(profile) else 0


def own_turn_counted(t: Transition, profile: Profile) -> bool | None:
    """The bot's own action counted exactly one turn; None when the step's turn count
    also holds frozen bots' turns or an end that cannot be told apart (FLIT-FREEZE's and
    the turn order's business then)."""
    extra = frozen_turns_inside(t, profile)
    if extra is None:
        if t.after["phase"] == "over":
            # the end came inside the step: the own turn, then maybe frozen bots' turns
            return None if t.after["turn"] > t.before["turn"] + 1 else bool(
                t.after["turn"] == t.before["turn"] + 1)
        return None
    if extra:
        return None
    return bool(t.after["turn"] == t.before["turn"] + 1)


def next_active(before: JSON, frozen: list[bool]) -> int:
    """The first bot after the mover, in turn order, that is not frozen (the mover itself
    when every other bot is)."""
    mover = before["to_move"]
    bot = mover % 4 + 1
    while bot != mover and frozen[bot - 1]:
        bot = bot % 4 + 1
    return int(bot)
