"""One shared look at a Kingdomino state, and at a step, for the oracles' common case
(issue 15: a lean lockstep).

`state_verdicts(s, profile)` (`STATE_PREJUDGE`, the look at a state: `fast_state`, whose
names this module re-exports) answers for the nine state hooks at once and
`verdicts(t, profile)` (`PREJUDGE`, here) for the checks of the common steps (a deal, a
put, a play without a put). Each answer is `OK` or `NA` only where the rule's own hook (in
`oracles.kingdomino`) answers exactly that on the same JSON: every field the hook would
read is read, and the same conditions decide, restricted to plain values (whole numbers,
lists, strings) the hook reads without an error; anything else, and any step or state a
rule might object to, is `None` ("ask the hook"), so every violation, its message, and
every exception a hook raises still come from the hook. Any error while looking answers
None for every rule.

Shared parts: the lockstep shows the reference's own JSON when the engine agrees, and
`observe_next` shares the parts a step left alone (the grids list when no grid changed,
else each unchanged grid's row list; kings, bag, line, placing, stopped). A grid's facts
(`facts.Grid`) are kept by the identity of its row list (the list held with them, so its
id is not reused; JSON shown to oracles is not changed afterwards): a grid the step left
alone is not read again, and a grids list read right after one whose grids were all well
formed reads only its new row lists. A put is judged by building the player's rows after
it from the rows before and the tile's two squares and comparing them with the reply's;
when they match, the grid after gets its facts from the grid before's (`_put`), not
by reading it again. Fresh JSON (an engine that diverged) shares nothing and is read in
full.

`tests/kingdomino/test_fast.py` compares every answer with the hook's own verdict on the
states and steps of random games of every profile (fresh and shared JSON), on replies
that break a rule and on corrupted replies. This module judges nothing: it saves work.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

from gamecert.oracles.base import NA, OK, Transition
from gamecert.oracles.kingdomino import board as b
from gamecert.oracles.kingdomino import facts as f
from gamecert.oracles.kingdomino import fast_state
from gamecert.oracles.kingdomino.fast_state import (
    _ASK_GRID,
    _BY_ID,
    _FORMED,
    _GOOD_GRID,
    ASK_STATE,
    JSON,
    STATE_PREJUDGE,
    STATE_RULES,
    Answer,
    _consts,
    _keep,
    _one,
    _seen,
    grid_answers,
    grid_of,
    state_verdicts,
)
from gamecert.spec import Profile

# the look at a state's names, read from here by the package's face and the tests
__all__ = ["ASK", "ASK_STATE", "RULES", "STATE_PREJUDGE", "STATE_RULES", "_ASK_GRID", "_BY_ID",
           "_GOOD_GRID", "_seen", "grid_answers", "grid_of", "state_verdicts",
           "verdicts"]

# --- the checks ----------------------------------------------------------------------------

RULES = ("KD-TILES", "KD-TILES-IN-PLAY", "KD-DEAL", "KD-ORDER", "KD-FIRST-TURN-NO-PUT",
         "KD-PICK", "KD-GAME-LENGTH", "KD-PLACE-ROTATION", "KD-PLACE-NO-OVERLAP",
         "KD-PLACE-EXTENT", "KD-PLACE-CONNECT", "KD-DISCARD", "KD-SCORE-ZONES")
(TILES, IN_PLAY, DEAL, ORDER, FIRST, PICK, LENGTH, ROTATION, OVERLAP, EXTENT, CONNECT,
 DISCARD, SCORE) = range(len(RULES))
ASK: tuple[Answer, ...] = (None,) * len(RULES)
_N = b.N


def verdicts(t: Transition, profile: Profile) -> tuple[Answer, ...]:
    """`PREJUDGE`'s answers, in `RULES`' order."""
    try:
        action, before, after = t.action, t.before, t.after
        if type(action) is not dict or type(before) is not dict or type(after) is not dict:
            return ASK
        seen = _seen
        c = seen.consts if seen.profile is profile else _consts(profile)
        kind = action.get("type")
        if kind == "deal":
            out = _deal(action, before, after, c)
        elif kind == "play":
            out = _play(action, before, after, c)
        else:
            return ASK
        # the common answers are built once; the rest made one object each (`_one`)
        return out if out is _PUT_OK or out is _DEAL_OK else _one(out)
    except Exception:  # a step it cannot read: every check is asked
        return ASK


# the line a deal read last (after it) and the tiles read from it; lists never changed
_line_read: list[Any] = [None, None]
# a deal's answers when KD-TILES-IN-PLAY and KD-DEAL hold and the game goes on
_DEAL_OK = (NA, OK, OK, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA)


def _deal(action: JSON, before: JSON, after: JSON, c: f.Consts) -> tuple[Answer, ...]:
    """A deal: KD-TILES-IN-PLAY, KD-DEAL and KD-SCORE-ZONES."""
    # KD-SCORE-ZONES (`score_check`): NA unless the game is over with a result, read in
    # its order
    res = after["result"]
    a_phase, a_line, a_bag = after["phase"], after["line"], after["bag"]
    a_score = NA if a_phase != "over" or res is None else None
    # KD-TILES-IN-PLAY (`in_play_check`)
    a_in_play: Answer
    b_phase = before["phase"]
    if b_phase != "deal":
        a_in_play = NA
    else:
        size, line = c.line_size, len(a_line)
        if a_phase == "deal":
            a_in_play = OK if line < size and a_bag != [] else None
        else:
            a_in_play = OK if line == size or not a_bag else None
    # KD-DEAL (`deal_check`)
    tile = action["tile"]
    bag = before["bag"]
    if type(tile) is int and type(bag) is list and bag.count(tile) == 1:
        k = bag.index(tile)
        want_bag = bag[:k] + bag[k + 1:]
    else:
        want_bag = [x for x in bag if x != tile]
    line_b = before["line"]
    read = _line_read
    if line_b is read[0]:  # the line after the deal before (a list read then)
        want_line = read[1] + [tile]
    else:
        want_line = list(map(_by_tile, line_b))  # each `e["tile"]`, in C
        want_line.append(tile)
    want_line.sort()
    got_line = list(map(_by_tile, a_line))
    if type(a_line) is list:  # its tiles, for the next deal (held: its id is its own)
        read[0], read[1] = a_line, got_line
    a_deal: Answer
    if after["turn"] != before["turn"]:
        a_deal = NA
    else:
        a_deal = OK if a_bag == want_bag and got_line == want_line else None
    # The checks of a play at a deal (the lockstep does not ask them; answered so that the
    # answers hold no None where every check asked is answered): KD-TILES, KD-PLACE-*
    # (`_placing_put`: the action is no play), KD-PICK and KD-DISCARD (`_play`) answer NA
    # with the phase before read; KD-ORDER, KD-FIRST-TURN-NO-PUT and KD-GAME-LENGTH answer
    # NA when it is not "play" (each reads it first), else they are asked.
    if b_phase != "play":
        if a_deal is OK and a_in_play is OK and a_score is NA:
            return _DEAL_OK
        return (NA, a_in_play, a_deal, NA, NA, NA, NA, NA, NA, NA, NA, NA, a_score)
    return (NA, a_in_play, a_deal, None, None, NA, None, NA, NA, NA, NA, NA, a_score)


def _play(action: JSON, before: JSON, after: JSON, c: f.Consts) -> tuple[Answer, ...]:
    """A play (with or without a put): the checks `oracles.kingdomino` asks at one, and
    KD-DEAL and KD-TILES-IN-PLAY, NA (each reads the action's type first: not a deal)."""
    # KD-SCORE-ZONES (`score_check`): NA unless the game is over with a result, read in
    # its order
    res = after["result"]
    a_score = NA if after["phase"] != "over" or res is None else None
    b_phase, a_phase = before["phase"], after["phase"]
    if type(b_phase) is not str or type(a_phase) is not str:
        return ASK
    if b_phase != "play":  # every check below reads the phase first and answers NA
        return (NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, NA, a_score)
    b_turn, a_turn = before["turn"], after["turn"]
    if type(b_turn) is not int or type(a_turn) is not int:
        return ASK
    placing, nxt = before["placing"], before["next"]
    k = placing[nxt]
    tile, p = k["tile"], k["player"]
    stopped = after["stopped"]
    if type(stopped) is not list:
        return ASK
    pick = action.get("pick")
    last = b_turn >= c.turns
    line = before["line"]
    # KD-ORDER (`order_check`, with `_line_after` of a play)
    a_order: Answer
    if a_phase == "over" or a_turn != b_turn + 1:
        a_order = NA
    else:
        # `_line_after`'s entries and the kings still playing among them in one pass: the
        # same values read in the same order, kept in the line's order (the sort is stable)
        want = []
        for e in line:
            tile_e = e["tile"]
            owner = p if pick is not None and tile_e == pick else e["player"]
            if owner is not None and not stopped[owner - 1]:
                want.append({"tile": tile_e, "player": owner})
        want.sort(key=_by_tile)
        a_order = OK if after["placing"] == want else None
    # KD-FIRST-TURN-NO-PUT (`first_turn_check`)
    a_first = NA if tile is not None else OK if after["grids"] == before["grids"] else None
    # KD-PICK (`pick_check`)
    a_pick: Answer
    if last or a_phase == "over":
        a_pick = NA
    elif type(pick) is int and type(line) is list:
        a_pick = _pick(line, after["line"], pick, p, a_turn != b_turn)
    else:
        free = [e["tile"] for e in line if e["player"] is None]
        if pick not in free:
            a_pick = None
        elif a_turn != b_turn:
            a_pick = OK
        else:
            if pick is not None:
                marked = [{"tile": e["tile"], "player": p if e["tile"] == pick
                           else e["player"]} for e in line]
            else:
                marked = list(line)
            a_pick = OK if after["line"] == marked else None
    # KD-GAME-LENGTH (`length_check`)
    m = _length_read
    if (placing is not m[0] or stopped is not m[1] or c is not m[2]) \
            and not _length_reads(placing, stopped, c):
        rest = [k2 for k2 in placing[nxt + 1:] if not stopped[k2["player"] - 1]]
        everyone_out = stopped.count(False) <= c.alone
    elif type(nxt) is int and nxt >= 0:
        rest, everyone_out = nxt < m[3], m[4]
    else:
        rest = [k2 for k2 in placing[nxt + 1:] if not stopped[k2["player"] - 1]]
        everyone_out = m[4]
    should_end = everyone_out or (not rest and last)
    a_length = (OK if should_end else None) if a_phase == "over" else (
        None if should_end else OK)
    if tile is None:
        # no tile to place: `_placing_put` fails (NA), and so does KD-DISCARD's condition
        return (NA, NA, NA, a_order, a_first, a_pick, a_length, NA, NA, NA, NA, NA, a_score)
    put = action.get("put")
    placed: Answer = NA  # not a put (`_placing_put`): KD-TILES and the placement checks NA
    if (isinstance(put, list) and len(put) == 3 and type(put[0]) is int
            and type(put[1]) is int and type(put[2]) is int):  # `_placing_put`
        placed = _put(put, tile, p, before, after, c)
    if placed is OK and a_pick is OK and a_length is OK and a_order is NA and a_first is NA \
            and a_score is NA:
        return _PUT_OK
    return (placed, NA, NA, a_order, a_first, a_pick, a_length, placed, placed, placed,
            placed, NA if put is not None else _discard(tile, p, before, after, c), a_score)


def _discard(tile: Any, p: Any, before: JSON, after: JSON, c: f.Consts) -> Answer:
    """KD-DISCARD (`discard_check`) at a play with no put of a tile (the phase "play" and
    the tile read): OK when the tile fits nowhere on the player's grid (`_fits`: the same
    `board.fits_somewhere` on the same grid string, tile and size), it is among the
    discarded and the player's grid is unchanged; else None."""
    g = b.grid(before, p)
    if b.fits_somewhere(g, c.tiles[tile], c.size) is not None:
        return None
    return OK if tile in after["discarded"] and b.grid(after, p) == g else None


# KD-GAME-LENGTH's reads of a turn: (the placing before, the stopped after, the Consts,
# the last index of a king still playing (-1: none), whether everyone is out)
_length_read: list[Any] = [None, None, None, -1, False]


def _length_reads(placing: Any, stopped: list[Any], c: f.Consts) -> bool:
    """Read, for the placing list and stopped list (the same objects all turn on shared
    JSON), the last index `i` of a king `k` of `placing` with `not stopped[k["player"] -
    1]` (every king read as `length_check` reads those after `nxt`): `rest` at index `nxt`
    (from 0) is non-empty iff `nxt < i`; and `everyone_out`. Remembered (each object held)
    and True, or False (nothing remembered) for lists it cannot read so."""
    m = _length_read
    m[0] = None
    if type(placing) is not list:
        return False
    last = -1
    try:
        for i, k in enumerate(placing):
            if not stopped[k["player"] - 1]:
                last = i
    except Exception:
        return False
    m[1], m[2], m[3], m[4] = stopped, c, last, stopped.count(False) <= c.alone
    m[0] = placing
    return True


def _pick(line: list[Any], a_line: Any, pick: int, p: Any, turned: bool) -> Answer:
    """KD-PICK (`pick_check`) for a whole-number pick, before the last turn and with the
    game going on, without building its lists: `free` (the tiles of the entries with no
    player) and, within a turn, `marked` (each entry as `{"tile": .., "player": ..}`, the
    picked tile's with the player `p`) compared with the line after, entry by entry. OK
    only when every entry of `line` was read (its tile and player: all the hook reads), the
    pick is a free tile (`==`, where `in` compares by identity first: more, never less) and
    (within a turn, `turned` false) the line after is a list of as many dicts, each with
    exactly the keys "tile" and "player", whose values equal (`==`, their value on the left
    as `==` of dicts compares them) those of the entry marked; else None."""
    found = False
    if turned:  # the turn ended: only the pick among the free tiles
        for e in line:
            tile_e, owner = e["tile"], e["player"]
            if owner is None and tile_e == pick:
                found = True
        return OK if found else None
    if type(a_line) is not list or len(a_line) != len(line):
        return None
    same = True
    for e, got in zip(line, a_line, strict=True):  # as long (tested above)
        tile_e, owner = e["tile"], e["player"]
        if tile_e == pick:
            if owner is None:
                found = True
            owner = p
        if same and not (type(got) is dict and len(got) == 2 and got["tile"] == tile_e
                         and got["player"] == owner):
            same = False
    return OK if found and same else None


# a put's answers when every check holds within a turn (KD-ORDER NA) and the game goes on
_PUT_OK = (OK, NA, NA, NA, NA, OK, OK, OK, OK, OK, OK, NA, NA)


_by_tile = itemgetter("tile")


def _put_cells() -> dict[tuple[int, int, int], tuple[Any, ...]]:
    """For each put (x, y, r) whose two cells are on the grid (`board.on_grid`, with
    `board.second`): (the cells' indexes 9y + x and 9y2 + x2; their least and greatest x
    and y; y, and where the first cell starts and ends in its row, 2x and 2x + 2; y2, 2x2
    and 2x2 + 2; the first characters around each cell, `_AROUND_AT`'s)."""
    out: dict[tuple[int, int, int], tuple[Any, ...]] = {}
    for y in range(_N):
        for x in range(_N):
            for r in range(4):
                x2, y2 = b.second(x, y, r)
                if 0 <= x2 < _N and 0 <= y2 < _N:
                    i, j = _N * y + x, _N * y2 + x2
                    out[x, y, r] = (i, j, min(x, x2), max(x, x2), min(y, y2), max(y, y2),
                                    y, 2 * x, 2 * x + 2, y2, 2 * x2, 2 * x2 + 2,
                                    _AROUND_AT[i], _AROUND_AT[j])
    return out


# for cell i (9y + x): the first characters of the cells around it in a grid's joined string
# (`g[2 * n]` for each n of `board._AROUND[i]`, as `facts._touches` reads them), as a tuple
# (every cell has two neighbours at least, so `itemgetter` gives a tuple)
assert min(map(len, b._AROUND)) >= 2
_AROUND_AT = [itemgetter(*[2 * n for n in around]) for around in b._AROUND]
_PUT_CELLS = _put_cells()


def _plain_square(sq: Any) -> bool:
    """A tile square that is a cell of the protocol's rows (`facts.ROW`), not empty and
    not the castle: a row that gains it stays well formed, and its count of `*` too."""
    return type(sq) is str and len(sq) == 2 and sq[0] not in "_*" and "*" not in sq \
        and f.ROW.fullmatch(sq * _N) is not None


_squares: list[Any] = [None, {}]  # (the Consts, its tiles whose two squares are plain)


def _plain_tiles(c: f.Consts) -> dict[int, tuple[str, str]]:
    if _squares[0] is not c:
        _squares[1] = {t: sq for t, sq in c.tiles.items()
                       if _plain_square(sq[0]) and _plain_square(sq[1])}
        _squares[0] = c
    tiles: dict[int, tuple[str, str]] = _squares[1]
    return tiles


def _put(put: list[int], tile: Any, p: Any, before: JSON, after: JSON,
         c: f.Consts) -> Answer:
    """KD-TILES, KD-PLACE-ROTATION and the three placement rules at a put (`_placing_put`
    holds: three whole numbers): OK when the player's grid after the step is exactly its
    grid before with the tile's two squares on the put's two cells (on the grid, free
    before, within the territory, connected), every other grid unchanged and every grid's
    rows well formed; else None. The grid after gets its facts from the grid before's."""
    cells = _PUT_CELLS.get((put[0], put[1], put[2]))  # `board.on_grid`, both cells
    if cells is None:
        return None
    tiles = _squares[1] if _squares[0] is c else _plain_tiles(c)
    squares = tiles.get(tile) if type(tile) is int else None
    if squares is None:
        return None
    grids_b, grids_a = before["grids"], after["grids"]
    n = c.players
    if type(grids_b) is not list or type(grids_a) is not list or len(grids_b) != n \
            or len(grids_a) != n or type(p) is not int or not 1 <= p <= n:
        return None
    mine = p - 1
    # KD-TILES reads every grid: the others must equal those before (lists compare their
    # rows, each first by identity: shared JSON keeps each grid the step left alone), and
    # each be well formed (known when the state before was read last with all its grids
    # so)
    others = _OTHERS[n][mine]
    if others is not None and others(grids_a) != others(grids_b):
        return None
    seen = _seen
    formed = grids_b is seen.grids and seen.grid_answers is _GOOD_GRID
    castles = formed  # every other grid's castle alone, as read now when not `formed`
    if not formed:
        castles = True
        for q in range(n):
            if q != mine:
                other = grid_of(grids_b[q])
                if not other.rows_ok:
                    return None
                castles = castles and other.castle_ok
    rows = grids_b[mine]
    hit = _BY_ID.get(id(rows))  # `grid_of(rows)`
    grid = hit[1] if hit is not None and hit[0] is rows else grid_of(rows)
    if not (formed or grid.rows_ok):  # 9 strings of 18 characters matching the row
        return None
    g = grid.g
    i, j, lo_x2, hi_x2, lo_y2, hi_y2, y, at, to, y2, at2, to2, around_i, around_j = cells
    if g[2 * i] != "_" or g[2 * j] != "_":  # KD-PLACE-NO-OVERLAP's fault
        return None
    first, second = squares
    want = list(rows)
    row = want[y]
    want[y] = row[:at] + first + row[to:]
    row = want[y2]
    want[y2] = row[:at2] + second + row[to2:]
    rows_a = grids_a[mine]
    if type(rows_a) is not list or rows_a != want:
        return None
    known = grid._extent  # `board.within`: the extent (`grid.extent`) widened to the cells
    box = known[0] if known is not None else grid.extent
    if box is None:
        lo_x, hi_x, lo_y, hi_y = lo_x2, hi_x2, lo_y2, hi_y2
    else:
        lo_x, hi_x, lo_y, hi_y = box
        lo_x = lo_x if lo_x < lo_x2 else lo_x2
        hi_x = hi_x if hi_x > hi_x2 else hi_x2
        lo_y = lo_y if lo_y < lo_y2 else lo_y2
        hi_y = hi_y if hi_y > hi_y2 else hi_y2
    size = c.size
    if not (hi_x - lo_x < size and hi_y - lo_y < size):
        return None
    # `board.connected` (`facts._touches` of either cell): the first characters of the
    # cells around each, picked out at once (`_AROUND_AT`)
    around = around_i(g)
    if not ("*" in around or first[0] in around):
        around = around_j(g)
        if not ("*" in around or second[0] in around):
            return None
    # the facts of the grid after (`facts.Grid(tuple(rows_a))`'s), without reading it all:
    # its rows are the rows before (well formed) with two free cells given plain squares
    # (`_plain_square`), so well formed and shaped as before; the castle's cell and the
    # number of `*` unchanged (the cells were `_` and a digit, the squares have no `*`),
    # so is `castle_ok`; its extent is the one before widened to the two cells. Kept by
    # the identity of its row list (`_keep`)
    grid_a = _new_grid(_Grid)
    grid_a.rows = tuple(rows_a)
    grid_a.g = "".join(rows_a)
    grid_a.rows_ok = grid_a.shaped = True
    grid_a.castle_ok = grid.castle_ok
    grid_a._extent = ((lo_x, hi_x, lo_y, hi_y),)
    _keep(rows_a, grid_a)
    if castles and grid.castle_ok:
        # `grid_answers` of the grids after: every grid but the player's equals (by value)
        # one of the grids before, each well formed with its castle alone (`formed`, or
        # read above), and the player's facts just kept say its rows well formed and its
        # castle alone: all well formed (what `grid_answers` would work out from them,
        # found now). So the next put, whose grids before are these, is `formed` even when
        # the state look has not read them yet (a batch of steps: every step looked at
        # before any state)
        seen.grids, seen.grid_answers = grids_a, _GOOD_GRID
        if len(_FORMED) >= fast_state._BY_ID_KEPT:  # the one bound (a test lowers it there)
            _FORMED.clear()
        _FORMED[id(grids_a)] = grids_a  # for the state look, which comes after every put
    return OK


_Grid = f.Grid
_new_grid = f.Grid.__new__
# for n players and the index of one: a function giving the others' grids of a grids list
# (a tuple of them, or the one grid when there is one other), None when there is none
_OTHERS = [[itemgetter(*[q for q in range(n) if q != mine]) if n > 1 else None
            for mine in range(n)] for n in range(9)]
