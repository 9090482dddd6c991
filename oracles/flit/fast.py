"""One shared look at a Flit step, for the oracles' common case (issue 15: a lean lockstep).

Thirteen checks judge a move and ten a neutral step, and each plain check re-reads the same
fields, re-asks the profile and rescans the 1,024-square board. `verdicts(t, profile)`
reads a transition once, in straight-line code, and answers for each rule either `OK` or
`NA` -- only where it has shown that the rule's plain check (in `oracles.flit`) answers
exactly that -- or `None`: "ask the plain check". Anything unusual (a setup step, a
time-out, an invalid reply, the game's last step, a frozen bot's turn, an unreadable
reply, a step some rule objects to) is `None` for the rules concerned, so every violation,
and its message, still comes from the plain check. A rule's fast answer is never a
violation.

The answer is remembered for the last transition (held, so its id is not reused), and the
piece counts of recent boards are remembered per board object (held likewise): the
lockstep's `after` of one step is the `before` of the next, and a board whose change from
a counted board is known exactly gets its counts from that board's, with no rescan.

`tests/flit/test_speedups.py` checks, on every step of random games and on steps with
corrupted replies, that each fast answer equals the plain check's. This module must not
judge anything the plain checks do not: it only saves them work.
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, CheckFn, Transition, Verdict
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

_CHAR = {"0": 0, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}
_counted: dict[int, tuple[str, tuple[int, ...]]] = {}  # id(board) -> (board, counts 0-5)
_KEEP = 8  # boards remembered: the lockstep needs the last two or three


def _remember(board: str, counts: tuple[int, ...]) -> tuple[int, ...]:
    if len(_counted) >= _KEEP:
        del _counted[next(iter(_counted))]  # the oldest
    _counted[id(board)] = (board, counts)
    return counts


def counts(board: str) -> tuple[int, ...]:
    """How many squares of `board` hold "0" (empty) ... "5" (neutral)."""
    seen = _counted.get(id(board))
    if seen is not None and seen[0] is board:
        return seen[1]
    return _remember(board, tuple(board.count(c) for c in "012345"))


def counts_after(board: str, changes: dict[int, str], after: str) -> tuple[int, ...]:
    """The counts of `after`, which the caller has found equal to `board` with `changes`
    made: from `board`'s counts when they are known, else counted."""
    seen = _counted.get(id(after))
    if seen is not None and seen[0] is after:
        return seen[1]
    known = _counted.get(id(board))
    if known is None or known[0] is not board:
        return counts(after)
    out = list(known[1])
    for i, c in changes.items():
        old, new = _CHAR.get(board[i]), _CHAR.get(c)
        if old is None or new is None:
            return counts(after)
        out[old] -= 1
        out[new] += 1
    return _remember(after, tuple(out))


def catchup_holds(n: tuple[int, ...], p_offset: int) -> bool:
    """FLIT-END-CATCHUP's condition from a board's counts (as `oracles.flit.catchup_holds`)."""
    _, _, second, first = sorted(n[1:5])
    spare = n[5] + n[0] - p_offset
    return bool(first > second + spare or second > first + spare)


# --- the answer for one transition ---------------------------------------------------------

# The last transition's answer: one (transition, profile, answer) tuple, read and replaced
# whole, holding the transition so that its id is not reused meanwhile.
_last: list[tuple[Any, Any, tuple[Answer, ...]]] = [(None, None, ASK_ALL)]


def verdicts(t: Transition, profile: Profile) -> tuple[Answer, ...]:
    """Per rule of `RULES`: the plain check's verdict (OK or NA), or None (ask it)."""
    held = _last[0]
    if held[0] is t and held[1] is profile:
        return held[2]
    try:
        answer = _analyse(t, profile)
    except Exception:  # a reply the plain checks must read and judge one by one
        answer = ASK_ALL
    _last[0] = (t, profile, answer)
    return answer


def with_fast_path(rule: str, plain: CheckFn) -> CheckFn:
    """`plain`, the check of `rule`, answered from `verdicts` where it can be."""
    i = INDEX[rule]

    def check(t: Transition, profile: Profile) -> Verdict:
        held = _last[0]
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
    event cannot be read so (the plain check then says why)."""
    want: dict[int, str] = {}
    for e in events:
        kind = e["type"]
        if kind in ("piece-placed", "converted"):
            pairs = ((e["at"], str(e["bot"])),)
        elif kind == "moved":
            pairs = ((e["from"], "0"), (e["to"], str(e["bot"])))
        elif kind == "neutral-added":
            pairs = ((e["at"], "5"),)
        else:
            continue
        for xy, c in pairs:
            x, y = xy
            if not (0 <= x < w and 0 <= y < h):
                return None
            want[int(y * w + x)] = c
    return want


def _analyse(t: Transition, profile: Profile) -> tuple[Answer, ...]:
    b, a, action = t.before, t.after, t.action
    if a["phase"] == "over":
        return ASK_ALL  # the game's last step: the plain checks judge it
    kind = str(action.get("type", ""))
    phase = b["phase"]
    if phase == "move" and kind in ("move", "pass"):
        return _player_step(t, kind, config(profile))
    if phase == "neutral" and kind in ("neutral", "neutral-list"):
        return _neutral_step(t, kind, config(profile))
    return ASK_ALL


def _player_step(t: Transition, kind: str, cfg: Config) -> tuple[Answer, ...]:
    """A move or a no move in the move phase, the game going on."""
    b, a = t.before, t.after
    bot = b["to_move"]
    board, after = b["board"], a["board"]
    if type(bot) is not int or type(board) is not str or type(after) is not str:
        return ASK_ALL
    out: list[Answer] = [None] * len(RULES)
    out[WINNER] = out[TIE] = NA  # the game goes on
    out[TURN] = OK if a["to_move"] == bot else None
    want = list(b["timeouts"])
    want[bot - 1] = 0
    out[TIME] = OK if a["timeouts"] == want else None
    frozen = a["frozen"]
    if not (frozen != list(b["frozen"]) or (a["phase"] == "move" and frozen[a["to_move"] - 1])):
        out[FREEZE] = NA
    if kind == "move":
        out[ALLPASS] = OK if a["passes"] == 0 else None
    else:
        out[ALLPASS] = OK if a["passes"] == b["passes"] + 1 else None
    if cfg.after_move:
        out[TIMING] = NA
    else:
        out[TIMING] = OK if a["phase"] == "neutral" else None
    w, h = b["width"], b["height"]
    if kind == "move":
        changes = _move(t, out, bot, board, after, w, h)
    else:
        same = board == after
        out[NOMOVE] = OK if same and a["turn"] == b["turn"] + 1 else None
        changes = {} if same else None
    if changes is not None:
        want_updates = _updates(t.events, w, h)
        if want_updates is not None:
            if not want_updates and board == after:
                out[UPDATES] = NA
            elif want_updates == changes and all(board[i] != c for i, c in changes.items()):
                out[UPDATES] = OK  # the events name exactly the changes found above
    if cfg.after_move:  # the end conditions are checked on the state after the move
        out[TURNCAP] = OK if not _turncap(a["turn"], cfg) else None
        out[CATCHUP] = None
        if changes is not None:
            n = counts_after(board, changes, after)
            out[CATCHUP] = OK if not catchup_holds(n, cfg.p_offset) else None
    else:
        out[TURNCAP] = out[CATCHUP] = NA
        if changes is not None and id(board) in _counted:
            counts_after(board, changes, after)  # for the neutral step that follows
    return tuple(out)


def _move(t: Transition, out: list[Answer], bot: int, board: str, after: str, w: int,
          h: int) -> dict[int, str] | None:
    """FLIT-BOARD-TORUS, FLIT-MOVE-VALID and FLIT-CONVERT on a move; returns the squares
    it changed when `after` is exactly the board the rules call for, else None."""
    action = t.action
    fx, fy = action["from"]
    tx, ty = action["to"]
    if not (0 <= fx < w and 0 <= fy < h and 0 <= tx < w and 0 <= ty < h):
        return None
    o, d = int(fy * w + fx), int(ty * w + tx)
    c = str(bot)
    around = torus_neighbours(w, h)[d]
    own = [n for n in around if n != o and board[n] == c]
    if not (o != d and board[o] == c and board[d] == "0" and own):
        return None  # an invalid move applied: FLIT-MOVE-VALID says so
    wrap = not [n for n in planar_neighbours(w, h)[d] if n != o and board[n] == c]
    out[TORUS] = OK if wrap else NA
    if after[o] == "0" and after[d] == c and t.after["turn"] == t.before["turn"] + 1:
        out[VALID] = OK
    changes = {o: "0", d: c} | {n: c for n in around if board[n] == "5"}
    if patched(board, changes) != after:
        return None
    out[CONVERT] = OK
    return changes


def _turncap(turn: int, cfg: Config) -> bool:
    return bool(turn > cfg.cap) if cfg.cap_exceeds else bool(turn >= cfg.cap)


def _neutral_step(t: Transition, kind: str, cfg: Config) -> tuple[Answer, ...]:
    """A neutral step (after a move) that hands the turn to a bot that is not frozen."""
    b, a, action = t.before, t.after, t.action
    board, after = b["board"], a["board"]
    if type(board) is not str or type(after) is not str:
        return ASK_ALL
    bot = b["to_move"]
    nxt = bot % 4 + 1
    if b["frozen"][nxt - 1]:
        return ASK_ALL  # a frozen bot is due: its turn passes or is skipped
    out: list[Answer] = [None] * len(RULES)
    out[WINNER] = out[TIE] = out[TIMING] = NA
    out[TURN] = OK if a["to_move"] == nxt else None
    frozen = a["frozen"]
    if not (frozen != list(b["frozen"]) or (a["phase"] == "move" and frozen[a["to_move"] - 1])
            or a["turn"] != b["turn"]):
        out[FREEZE] = NA
    at = action["at"]
    adds = action["hit"] if kind == "neutral" else at is not None
    w, h = b["width"], b["height"]
    changes: dict[int, str] | None = None
    if not adds:
        if board == after:
            changes = {}
    else:
        x, y = at
        if 0 <= x < w and 0 <= y < h:
            i = int(y * w + x)
            if board[i] == "0" and all(board[n] == "0" for n in torus_neighbours(w, h)[i]) \
                    and patched(board, {i: "5"}) == after:
                changes = {i: "5"}
    if changes is None:
        return tuple(out)
    out[NEUTRAL] = OK
    want_updates = _updates(t.events, w, h)
    if want_updates is not None:
        if not want_updates and board == after:
            out[UPDATES] = NA
        elif want_updates == changes and all(board[i] != c for i, c in changes.items()):
            out[UPDATES] = OK
    # No frozen bot's turn followed (the turn count stands): the run of passes stands, and
    # the end conditions are checked once, after the neutral step, under after-neutral only.
    if a["turn"] != b["turn"] or a["passes"] != b["passes"]:
        return tuple(out)
    if cfg.after_move:
        out[TURNCAP] = out[CATCHUP] = out[ALLPASS] = NA
        return tuple(out)
    out[TURNCAP] = OK if not _turncap(b["turn"], cfg) else None
    active = 4 if cfg.frozen_count else 4 - sum(1 for f in b["frozen"] if f)
    out[ALLPASS] = OK if not b["passes"] >= active else None
    n = counts_after(board, changes, after)
    out[CATCHUP] = OK if not catchup_holds(n, cfg.p_offset) else None
    return tuple(out)
