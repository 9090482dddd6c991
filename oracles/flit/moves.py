"""The Flit checks of a bot's turn: moves across the torus's edges (FLIT-BOARD-TORUS), the
turn order (FLIT-TURN-ORDER), valid moves, passes and invalid replies (FLIT-MOVE-*), the
squares a move converts (FLIT-CONVERT), the time limit (FLIT-TIME-LIMIT) and frozen bots
(FLIT-FREEZE).

On canonical JSON only, never the reference engine; a whole turn's parts are `turn`'s.
Binds no rule id to a check: the package's `ORACLES` does.
"""

from __future__ import annotations

from gamecert.oracles.base import NA, OK, Transition, Verdict, cause
from gamecert.oracles.flit.board import (
    changed,
    frozen_turns_count,
    move_facts,
    move_squares,
    move_valid,
    nbrs,
    patched,
    wrap_dependent,
)
from gamecert.oracles.flit.common import (
    JSON,
    PHASE_OF,
    PLAYER_ACTIONS,
    _bot,
    _kind,
    _places,
    _squares,
)
from gamecert.oracles.flit.protocol import _parse_reply
from gamecert.oracles.flit.turn import (
    move_board,
    next_active,
    own_turn_counted,
    passed_over,
    whole_turn,
)
from gamecert.spec import Profile


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
