"""One shared look at a Flit step, for the oracles' common case (issue 15: a lean lockstep).

Thirteen checks judge a move and ten a neutral step, and each plain check re-reads the same
fields, re-asks the profile and rescans the 1,024-square board. `verdicts(t, profile)`
reads a transition once, in straight-line code, and answers for each rule either `OK` or
`NA` -- only where it has shown that the rule's plain check (in `oracles.flit`) answers
exactly that -- or `None`: "ask the plain check". Anything unusual (a setup step, a
time-out, an invalid reply, the game's last step, a frozen bot's turn, a bot's whole turn
as an engine that draws for itself replies, an unreadable reply, a step some rule objects
to) is `None` for the rules concerned, so every violation,
and its message, still comes from the plain check. A rule's fast answer is never a
violation.

The answer is remembered for the last transition object (held, so its id is not reused;
a transition is not changed once judged: the lockstep makes a new one for every step), and
the piece counts of the last board analysed are carried on with it (held likewise): the
lockstep's `after` of one step is the `before` of the next, and a board whose change from
the counted board is known exactly gets its counts from that board's, with no rescan.

`tests/flit/test_speedups.py` checks, on every step of random games and on steps with
corrupted replies, that each fast answer equals the plain check's. This module must not
judge anything the plain checks do not: it only saves them work.
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, CheckFn, Transition, Verdict, one_per_value
from gamecert.oracles.flit.board import patched, planar_neighbours, torus_neighbours
from gamecert.spec import Profile

JSON = Any
Answer = Verdict | None

# The rules answered here, in the order of the answer tuple.
RULES = ("FLIT-BOARD-TORUS", "FLIT-TURN-ORDER", "FLIT-MOVE-VALID", "FLIT-MOVE-NOMOVE",
         "FLIT-CONVERT", "FLIT-NEUTRAL-ADD", "FLIT-TIME-LIMIT", "FLIT-FREEZE",
         "FLIT-END-TURNCAP", "FLIT-END-ALLPASS", "FLIT-END-CATCHUP", "FLIT-END-TIMING",
         "FLIT-WINNER", "FLIT-WINNER-TIE", "FLIT-PROTO-UPDATES")
(TORUS, TURN, VALID, NOMOVE, CONVERT, NEUTRAL, TIME, FREEZE, TURNCAP, ALLPASS, CATCHUP,
 TIMING, WINNER, TIE, UPDATES) = range(len(RULES))
INDEX = {rule: i for i, rule in enumerate(RULES)}
ASK_ALL: tuple[Answer, ...] = (None,) * len(RULES)


class Config:
    """What the oracles read from a profile, read once."""

    def __init__(self, profile: Profile) -> None:
        self.after_move = profile.variant("FLIT-END-TIMING") == "after-move"
        self.cap = profile.param("FLIT-END-TURNCAP", "max_turns")
        self.cap_exceeds = profile.variant("FLIT-END-TURNCAP") == "literal-exceeds"
        self.any_no_move = profile.variant("FLIT-END-ALLPASS") == "any-no-move"
        self.frozen_count = profile.variant("FLIT-FREEZE") == "turn-as-no-move"
        self.p_offset = profile.param("FLIT-END-CATCHUP", "p_offset")


_config: list[tuple[Profile | None, Config | None]] = [(None, None)]  # one (profile, Config)


def config(profile: Profile) -> Config:
    held, cfg = _config[0]  # one tuple, read and replaced whole
    if held is not profile or cfg is None:
        cfg = Config(profile)
        _config[0] = (profile, cfg)
    return cfg


# --- piece counts per board ----------------------------------------------------------------

NO_COUNTS: tuple[int, ...] = ()
# The counts of the last board analysed: one (board, counts of "0" ... "5") tuple, holding
# the board (so its id is not reused). The lockstep's `after` of one step is the `before`
# of the next, so the next step finds its board here and counts its `after` from it.
_carry: list[tuple[str | None, tuple[int, ...]]] = [(None, NO_COUNTS)]


def counts(board: str) -> tuple[int, ...]:
    """How many squares of `board` hold "0" (empty) ... "5" (neutral)."""
    held = _carry[0]
    if held[0] is board:
        return held[1]
    return tuple(board.count(c) for c in "012345")


def carry(after: str, n: tuple[int, ...]) -> tuple[int, ...]:
    """Remember `n` as the counts of `after` (for the step that starts from it)."""
    _carry[0] = (after, n)
    return n


# The last catch-up verdict: one (counts, p_offset, holds) tuple, holding the counts. A step
# that changes no count carries its board's very counts tuple on, so it is asked again.
_held: list[tuple[tuple[int, ...], Any, bool]] = [(NO_COUNTS, None, False)]


def catchup_holds(n: tuple[int, ...], p_offset: int) -> bool:
    """FLIT-END-CATCHUP's condition from a board's counts (as `oracles.flit.catchup_holds`)."""
    held = _held[0]
    if held[0] is n and held[1] == p_offset:
        return held[2]
    _, _, second, first = sorted(n[1:5])
    spare = n[5] + n[0] - p_offset
    holds = bool(first > second + spare or second > first + spare)
    _held[0] = (n, p_offset, holds)
    return holds


# --- the answer for one transition ---------------------------------------------------------

# The last transition's answer: one (transition, profile, answer) tuple, replaced whole,
# holding the transition so that its id is not reused meanwhile.
_last: tuple[Any, Any, tuple[Answer, ...]] = (None, None, ASK_ALL)


def verdicts(t: Transition, profile: Profile) -> tuple[Answer, ...]:
    """Per rule of `RULES`: the plain check's verdict (OK or NA), or None (ask it)."""
    global _last
    held = _last
    if held[0] is t and held[1] is profile:
        return held[2]
    answer = ASK_ALL  # a setup step, a time-out, an invalid reply, out of phase, the end
    try:
        b, a = t.before, t.after
        board, after = b["board"], a["board"]
        bot = b["to_move"]
        kind = t.action.get("type", "")
        if a["phase"] != "over" and type(kind) is str and type(board) is str and type(
                after) is str and type(b["frozen"]) is list and type(bot) is int:
            held_cfg = _config[0]
            cfg = held_cfg[1] if held_cfg[0] is profile and held_cfg[1] else config(profile)
            phase = b["phase"]
            if phase == "move" and a["phase"] == "move":
                pass  # a bot's whole turn (follow mode): the plain checks read it
            elif kind == "neutral" or kind == "neutral-list":
                if phase == "neutral":
                    answer = _neutral_step(t, kind, cfg, bot, board, after)
            elif kind == "move" and phase == "move":
                answer = _move_step(t, cfg, bot, board, after)
            elif kind == "pass" and phase == "move":
                answer = _pass_step(t, cfg, bot, board, after)
    except Exception:  # a reply the plain checks must read and judge one by one
        answer = ASK_ALL
    answer = _one(answer)
    _last = (t, profile, answer)
    return answer


_one = one_per_value()  # one tuple per set of answers (the lockstep's lane)


def with_fast_path(rule: str, plain: CheckFn) -> CheckFn:
    """`plain`, the check of `rule`, answered from `verdicts` where it can be."""
    i = INDEX[rule]

    def check(t: Transition, profile: Profile) -> Verdict:
        held = _last
        answer = held[2] if held[0] is t and held[1] is profile else verdicts(t, profile)
        verdict = answer[i]
        return plain(t, profile) if verdict is None else verdict

    check.__name__ = plain.__name__
    check.__qualname__ = plain.__qualname__
    check.__doc__ = plain.__doc__
    check.__wrapped__ = plain  # type: ignore[attr-defined]
    return check


def _updates(events: list[JSON], w: int, h: int) -> dict[int, str] | None:
    """The squares the events announce (as FLIT-PROTO-UPDATES reads them); None when an
    event names a square off the board (the plain check then says so)."""
    want: dict[int, str] = {}
    for e in events:
        kind = e["type"]
        if kind == "moved":
            x, y = e["from"]
            if not (0 <= x < w and 0 <= y < h):
                return None
            want[int(y * w + x)] = "0"
            x, y = e["to"]
            if not (0 <= x < w and 0 <= y < h):
                return None
            want[int(y * w + x)] = str(e["bot"])
        elif kind == "converted" or kind == "piece-placed" or kind == "neutral-added":
            x, y = e["at"]
            if not (0 <= x < w and 0 <= y < h):
                return None
            want[int(y * w + x)] = "5" if kind == "neutral-added" else str(e["bot"])
    return want


def _all_new(board: str, changes: dict[int, str]) -> bool:
    """Each change gives its square another colour than it had."""
    for i, c in changes.items():  # noqa: SIM110 (a generator costs more than the loop)
        if board[i] == c:
            return False
    return True


_COLOUR = ("0", "1", "2", "3", "4", "5")  # str(bot) for the bots 0-5, without the call
# The board's geometry, for the last width and height met: (w, h, torus neighbours, planar
# neighbours, square of each (x, y) on the board, whether each square is off the edges).
_tables: list[tuple[Any, Any, Any, Any, dict[tuple[int, int], int], tuple[bool, ...]]] = [
    (0, 0, (), (), {}, ())]


def _geometry(w: int, h: int) -> tuple[Any, Any, Any, Any, dict[tuple[int, int], int],
                                       tuple[bool, ...]]:
    """`_tables`'s entry for a w x h board. A square's index is `board.index`'s for the
    same [x, y] (an x or y equal to a whole number, as 2.0, finds its square too; any other
    finds none, and the plain checks read it)."""
    geo = (w, h, torus_neighbours(w, h), planar_neighbours(w, h),
           {(x, y): y * w + x for y in range(h) for x in range(w)},
           tuple(0 < x < w - 1 and 0 < y < h - 1 for y in range(h) for x in range(w)))
    _tables[0] = geo
    return geo


def _neighbours(w: int, h: int) -> tuple[Any, Any]:
    geo = _tables[0]
    if geo[0] != w or geo[1] != h:
        geo = _geometry(w, h)
    return geo[2], geo[3]


# The answers every fast step starts from: the game goes on, so the winner rules say NA.
_GOING_ON: list[Answer] = [None] * len(RULES)
_GOING_ON[WINNER] = _GOING_ON[TIE] = NA


def _move_step(t: Transition, cfg: Config, bot: int, board: str,
               after: str) -> tuple[Answer, ...]:
    """A move in the move phase, the game going on."""
    b, a, action = t.before, t.after, t.action
    a_phase, a_to_move = a["phase"], a["to_move"]
    turn_v = OK if a_to_move == bot else None
    was = b["timeouts"]
    if type(was) is list and was[bot - 1] == 0:  # the run stays 0: `want` would equal it
        time_v = OK if a["timeouts"] == was else None
    else:
        want = list(was)
        want[bot - 1] = 0
        time_v = OK if a["timeouts"] == want else None
    frozen = a["frozen"]
    freeze_v = None if frozen != b["frozen"] or (
        a_phase == "move" and frozen[a_to_move - 1]) else NA
    # under after-move the end is checked at this step: the plain check looks
    allpass_v = OK if a["passes"] == 0 and not cfg.after_move else None
    after_move = cfg.after_move
    timing_v = NA if after_move else OK if a_phase == "neutral" else None
    torus_v = valid_v = convert_v = updates_v = n_after = None
    w, h = b["width"], b["height"]
    geo = _tables[0]
    if geo[0] != w or geo[1] != h:
        geo = _geometry(w, h)
    fx, fy = action["from"]
    tx, ty = action["to"]
    squares = geo[4]
    o, d = squares.get((fx, fy)), squares.get((tx, ty))  # None: not a square of the board
    if o is not None and d is not None:
        c = _COLOUR[bot] if 0 <= bot <= 5 else str(bot)
        n0, n1, n2, n3 = geo[2][d]  # a torus square has four neighbours
        # valid: FLIT-MOVE-VALID on the torus; an invalid move applied is its business
        # (the neighbours one by one: a comprehension costs a function call)
        if o != d and board[o] == c and board[d] == "0" and (
                (n0 != o and board[n0] == c) or (n1 != o and board[n1] == c)
                or (n2 != o and board[n2] == c) or (n3 != o and board[n3] == c)):
            if geo[5][d]:
                torus_v = NA  # inside the edges every neighbour is a planar one: no wrap
            else:
                torus_v = NA if [n for n in geo[3][d] if n != o and board[n] == c] else OK
            if after[o] == "0" and after[d] == c and a["turn"] == b["turn"] + 1:
                valid_v = OK
            converted = board[n0] == "5" or board[n1] == "5" or board[n2] == "5" or \
                board[n3] == "5"
            changes: dict[int, str] | None = None
            if converted:
                changes = {o: "0", d: c}
                for n in (n0, n1, n2, n3):
                    if board[n] == "5":
                        changes[n] = c
                expected = patched(board, changes)
            elif o < d:  # `patched`, unrolled for the two squares of the move
                expected = "".join((board[:o], "0", board[o + 1:d], c, board[d + 1:]))
            else:
                expected = "".join((board[:d], c, board[d + 1:o], "0", board[o + 1:]))
            if expected == after:  # `after` is exactly `board` with the move's changes
                convert_v = OK
                events = t.events
                if not converted and len(events) == 1 and 1 <= bot <= 4:
                    e = events[0]  # one event, naming the move's own two squares
                    mover = e["bot"]  # str(mover) == c, without the call for a number
                    if e["type"] == "moved" and (mover == bot if type(mover) is int else str(
                            mover) == c) and e["from"] == action["from"] and e["to"] == \
                            action["to"]:
                        updates_v = OK
                elif events:
                    if changes is None:
                        changes = {o: "0", d: c}
                    if _updates(events, w, h) == changes and _all_new(board, changes):
                        updates_v = OK  # the events name exactly the changes made
                held_counts = _carry[0]
                if held_counts[0] is board and 1 <= bot <= 4:
                    n_after = held_counts[1]
                    if changes is not None and len(changes) > 2:
                        k = len(changes) - 2  # conversions turn neutrals into the bot's
                        m = list(n_after)
                        m[bot] += k
                        m[5] -= k
                        n_after = tuple(m)
                    _carry[0] = (after, n_after)
    if after_move:  # the end conditions are checked on the state after the move
        turncap_v = None if _turncap(a["turn"], cfg) else OK
        catchup_v = None
        if convert_v is OK:
            if n_after is None:
                n_after = carry(after, counts(after))
            catchup_v = None if catchup_holds(n_after, cfg.p_offset) else OK
    else:
        turncap_v = catchup_v = NA
    # NA for FLIT-NEUTRAL-ADD: the step stops before its neutral step
    return (torus_v, turn_v, valid_v, None, convert_v, NA, time_v, freeze_v, turncap_v,
            allpass_v, catchup_v, timing_v, NA, NA, updates_v)


def _pass_step(t: Transition, cfg: Config, bot: int, board: str,
               after: str) -> tuple[Answer, ...]:
    """A no move in the move phase, the game going on."""
    b, a = t.before, t.after
    out = _GOING_ON.copy()
    out[NEUTRAL] = NA  # the step stops before its neutral step
    if a["to_move"] == bot:
        out[TURN] = OK
    want = list(b["timeouts"])
    want[bot - 1] = 0
    if a["timeouts"] == want:
        out[TIME] = OK
    frozen = a["frozen"]
    if not (frozen != b["frozen"] or (a["phase"] == "move" and frozen[a["to_move"] - 1])):
        out[FREEZE] = NA
    if a["passes"] == b["passes"] + 1 and not cfg.after_move:
        out[ALLPASS] = OK
    if cfg.after_move:
        out[TIMING] = NA
    elif a["phase"] == "neutral":
        out[TIMING] = OK
    same = board == after
    if same and a["turn"] == b["turn"] + 1:
        out[NOMOVE] = OK
    if same:  # FLIT-PROTO-UPDATES: nothing changed, so no event may name a square
        announced = _updates(t.events, b["width"], b["height"]) if t.events else {}
        if announced == {}:
            out[UPDATES] = NA
        held = _carry[0]
        if held[0] is board:
            carry(after, held[1])
    if cfg.after_move:  # the end conditions are checked on the state after the move
        if not _turncap(a["turn"], cfg):
            out[TURNCAP] = OK
        if not catchup_holds(counts(after), cfg.p_offset):
            out[CATCHUP] = OK
    else:
        out[TURNCAP] = out[CATCHUP] = NA
    return tuple(out)


def _turncap(turn: int, cfg: Config) -> bool:
    return bool(turn > cfg.cap) if cfg.cap_exceeds else bool(turn >= cfg.cap)


def _neutral_step(t: Transition, kind: str, cfg: Config, bot: int, board: str,
                  after: str) -> tuple[Answer, ...]:
    """A neutral step (after a move) that hands the turn to a bot that is not frozen."""
    b, a, action = t.before, t.after, t.action
    was_frozen = b["frozen"]
    nxt = bot % 4 + 1
    if was_frozen[nxt - 1]:
        return ASK_ALL  # a frozen bot is due: its turn passes or is skipped
    a_to_move = a["to_move"]
    turn_v = OK if a_to_move == nxt else None
    turn = b["turn"]
    frozen = a["frozen"]
    a_turn = a["turn"]
    freeze_v = None if frozen != was_frozen or (a["phase"] == "move" and frozen[
        a_to_move - 1]) or a_turn != turn else NA
    at = action["at"]
    adds = action["hit"] if kind == "neutral" else at is not None
    held = _carry[0]
    n_after = held[1] if held[0] is board else NO_COUNTS
    changes: dict[int, str] = {}
    if not adds:
        if board != after:
            return (None, turn_v, None, None, None, None, None, freeze_v, None, None, None,
                    NA, NA, NA, None)
    else:
        w, h = b["width"], b["height"]
        x, y = at
        i = int(y * w + x) if 0 <= x < w and 0 <= y < h else -1
        if i >= 0:
            n0, n1, n2, n3 = _neighbours(w, h)[0][i]
        if i < 0 or not (board[i] == "0" and board[n0] == "0" and board[n1] == "0"
                         and board[n2] == "0" and board[n3] == "0"
                         and patched(board, {i: "5"}) == after):
            return (None, turn_v, None, None, None, None, None, freeze_v, None, None, None,
                    NA, NA, NA, None)
        changes = {i: "5"}
        if n_after:
            m = list(n_after)
            m[0] -= 1
            m[5] += 1
            n_after = tuple(m)
    # `after` is exactly `board` with `changes` made
    events = t.events
    updates_v: Answer = None
    if not events:
        if not changes:
            updates_v = NA
    else:
        announced = _updates(events, b["width"], b["height"])
        if announced is not None:
            if not announced and not changes:
                updates_v = NA
            elif announced == changes and _all_new(board, changes):
                updates_v = OK
    if not n_after:
        n_after = counts(after)
    _carry[0] = (after, n_after)
    # No frozen bot's turn followed (the turn count stands): the run of passes stands, and
    # the end conditions are checked once, after the neutral step, under after-neutral only.
    if a_turn != turn or a["passes"] != b["passes"]:
        turncap_v = allpass_v = catchup_v = None
    elif cfg.after_move:
        turncap_v = allpass_v = catchup_v = NA
    else:
        turncap_v = None if (turn > cfg.cap if cfg.cap_exceeds else turn >= cfg.cap) else OK
        active = 4 if cfg.frozen_count or not any(was_frozen) else 4 - sum(
            1 for f in was_frozen if f)  # FLIT-END-ALLPASS's bots that still play
        allpass_v = None if b["passes"] >= active else OK
        p_offset = cfg.p_offset
        last = _held[0]  # `catchup_holds`'s memory, asked inline
        holds = last[2] if last[0] is n_after and last[1] == p_offset else catchup_holds(
            n_after, p_offset)
        catchup_v = None if holds else OK
    return (None, turn_v, None, None, None, OK, None, freeze_v, turncap_v, allpass_v,
            catchup_v, NA, NA, NA, updates_v)
