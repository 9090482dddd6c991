"""One shared look at a Kingdomino state, for the oracles' common case (issue 15: a lean
lockstep): `state_verdicts(s, profile)` (`STATE_PREJUDGE`) answers for the nine state
hooks at once, and `grid_of` keeps a grid's facts by the identity of its row list.

Each answer is `OK` or `NA` only where the rule's own hook (in `oracles.kingdomino`)
answers exactly that on the same JSON, restricted to plain values the hook reads without
an error; anything else is `None` ("ask the hook"), so every violation, its message, and
every exception a hook raises still come from the hook. Any error while looking answers
None for every hook. A grid's facts (`facts.Grid`) are kept by the identity of its row
list (the list held with them, so its id is not reused; JSON shown to oracles is not
changed afterwards): a grid a step left alone is not read again.

The look at a step (`fast`) shares this module's grid facts, profile constants and answer
tuples. `tests/kingdomino/test_fast.py` compares every answer with the hook's own. This
module judges nothing: it saves work.
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, Verdict, one_per_value
from gamecert.oracles.kingdomino import facts as f
from gamecert.spec import Profile

JSON = Any
Answer = Verdict | None

# --- the state hooks -----------------------------------------------------------------------

STATE_RULES = ("KD-PLAYERS", "KD-TILES-IN-PLAY", "KD-KINGS", "KD-LAST-TURN-NO-PICK",
               "KD-GAME-LENGTH", "KD-GRID", "KD-TIE-BREAK", "KD-STOP", "KD-PROTO-INPUT")
ASK_STATE: tuple[Answer, ...] = (None,) * len(STATE_RULES)

_GOOD_GRID = (OK, OK)  # (KD-GRID, KD-PROTO-INPUT) for grids well formed, castles alone
_ASK_GRID = (None, None)


class _Seen:
    """The grids list read last and its (KD-GRID, KD-PROTO-INPUT) answers; the profile
    read last and its constants. Each object held, so an identity test is never fooled."""

    grids: Any = None
    grid_answers: tuple[Answer, Answer] = _ASK_GRID
    kings: Any = None
    kings_of: Any = None
    a_kings: Answer = None
    profile: Any = None
    consts: Any = None


_seen = _Seen()


def _consts(profile: Profile) -> f.Consts:
    seen = _seen
    if seen.profile is not profile:
        seen.consts, seen.profile = f.consts(profile), profile
    c: f.Consts = seen.consts
    return c


# A grid's facts by the identity of its row list: (the list, held; its `facts.Grid`).
_BY_ID: dict[int, tuple[Any, f.Grid]] = {}
_BY_ID_KEPT = 256  # more grids than a batch of deferred steps makes (fuzz.step.lockstep)


def grid_of(rows: Any) -> f.Grid:
    """`facts.grid_facts(tuple(rows))` (the facts of the grid whose rows are `rows`), found
    by the list's identity when it was read (or derived, `_put`) before. Raises what
    reading it raises."""
    hit = _BY_ID.get(id(rows))
    if hit is not None and hit[0] is rows:
        return hit[1]
    grid = f.grid_facts(tuple(rows))
    _keep(rows, grid)
    return grid


def _keep(rows: Any, grid: f.Grid) -> None:
    if len(_BY_ID) >= _BY_ID_KEPT:
        _trim()
    _BY_ID[id(rows)] = (rows, grid)


def _trim() -> None:
    """Forget the older half of `_BY_ID` (the grids in play were kept last)."""
    for key in list(_BY_ID)[:_BY_ID_KEPT // 2]:
        del _BY_ID[key]


# grids lists a put's look found all well formed with their castles alone (`_put`), by
# identity (each held): the state look of a batch of steps reads them after every put look
_FORMED: dict[int, Any] = {}


def grid_answers(s: JSON) -> tuple[Answer, Answer]:
    """(KD-GRID, KD-PROTO-INPUT) for `s`: OK where `facts.state_grids` (what both hooks
    read first) would find every castle alone on (4, 4), every grid's rows well formed:
    the same `facts.Grid` of each grid, by `grid_of`; else None. The same grids list
    (identity) gets the same answers."""
    seen = _seen
    grids = s["grids"]
    if grids is seen.grids:
        return seen.grid_answers
    if _FORMED.get(id(grids)) is grids:  # a put's look found them so (`_put`)
        seen.grids, seen.grid_answers = grids, _GOOD_GRID
        return _GOOD_GRID
    if type(grids) is not list:
        return _ASK_GRID
    castle_ok = rows_ok = True
    # the grids list read last, all well formed: a grid of it (the same row list) is so
    good = seen.grids if seen.grid_answers is _GOOD_GRID and type(seen.grids) is list \
        and len(seen.grids) == len(grids) else ()
    for i, rows in enumerate(grids):
        if good and rows is good[i]:
            continue
        hit = _BY_ID.get(id(rows))
        if hit is None or hit[0] is not rows:
            # a grid not known by identity: every grid read by `facts.state_grids` (its
            # rows compared by value with the grids read last there), each then kept
            sg = f.state_grids(s)
            for one, grid in zip(grids, sg.grids, strict=True):
                _keep(one, grid)
            castle_ok, rows_ok = sg.castle_bad is None, sg.rows_ok
            break
        grid = hit[1]
        castle_ok = castle_ok and grid.castle_ok
        rows_ok = rows_ok and grid.rows_ok
    out = _GOOD_GRID if castle_ok and rows_ok else (OK if castle_ok else None,
                                                     OK if rows_ok else None)
    seen.grids, seen.grid_answers = grids, out
    return out


def state_verdicts(s: JSON, profile: Profile) -> tuple[Answer, ...]:
    """`STATE_PREJUDGE`'s answers, in `STATE_RULES`' order."""
    try:
        if type(s) is not dict:
            return ASK_STATE
        seen = _seen
        c = seen.consts if seen.profile is profile else _consts(profile)
        n = c.players
        grids, stopped, turn, phase = s["grids"], s["stopped"], s["turn"], s["phase"]
        if type(grids) is not list or type(stopped) is not list or type(turn) is not int \
                or type(phase) is not str:
            return ASK_STATE
        # KD-PLAYERS: `s["players"] == n and len(grids) == n and len(stopped) == n`
        players = s["players"]
        a_players = OK if (type(players) is int and players == n and len(grids) == n
                           and len(stopped) == n) else None
        # KD-TILES-IN-PLAY: `len(line) <= line size and tiles - len(bag) <= in play`
        line, bag = s["line"], s["bag"]
        a_in_play = OK if (type(line) is list and type(bag) is list
                           and len(line) <= c.line_size
                           and len(c.tiles) - len(bag) <= c.in_play) else None
        # KD-KINGS: a list of whole numbers, each `== kings` (`count` compares as the hook
        # does); the same list as last time (identity), the same answer
        kings = s["kings"]
        if kings is seen.kings and c is seen.kings_of:
            a_kings = seen.a_kings
        else:
            a_kings = OK if type(kings) is list and kings.count(c.kings) == len(kings) \
                else None
            seen.kings, seen.kings_of, seen.a_kings = kings, c, a_kings
        # KD-LAST-TURN-NO-PICK: NA before the last turn and once the game is over
        turns = c.turns
        a_last: Answer
        a_stop: Answer
        if turn < turns or phase == "over":
            a_last = NA
        else:
            a_last = OK if phase == "play" and type(line) is list and not line else None
        # KD-GRID, KD-PROTO-INPUT: the same grids list as last time, the same answers
        a_grid, a_input = seen.grid_answers if grids is seen.grids else grid_answers(s)
        # KD-STOP: NA outside play; OK when the player to move has not stopped
        if phase != "play":
            a_stop = NA
        else:
            to_move = s["to_move"]
            a_stop = OK if (type(to_move) is int and 1 <= to_move <= len(stopped)
                            and stopped[to_move - 1] is False) else None
        # KD-GAME-LENGTH; KD-TIE-BREAK (NA without a result)
        out = (a_players, a_in_play, a_kings, a_last, OK if turn <= turns else None, a_grid,
               NA if s["result"] is None else None, a_stop, a_input)
        return _one(out)
    except Exception:  # a state it cannot read: every hook is asked
        return ASK_STATE


STATE_PREJUDGE = (STATE_RULES, state_verdicts)

_one = one_per_value()  # one tuple per set of answers (the lockstep's lane)
