"""Shared looks at a Carcassonne state and step, for the oracles' common case (issue 15).

`state_verdicts(state, profile)` (the game's `STATE_PREJUDGE`) answers for the cheap state
hooks in one call. Each answer is the hook's own verdict on this state, or the verdict it
gave on an earlier state whose parts it reads are the very same objects (`is`): the
lockstep builds its reference's JSON after a step from the JSON before it, sharing the
parts the step left alone (`observe_next`), and JSON shown to the oracles is never changed
afterwards, so a hook that reads only unchanged parts answers as it did. Each remembered
verdict holds the parts it was given (their ids stay theirs) and the profile. A reply that
shares nothing (an engine's own JSON) shares no part: every hook is asked afresh. The tile
counts (CARC-TILES, CARC-TOWER-TILES) are carried on from the last state counted right when
the step is shown, entry by entry, to have only moved tiles (`_same_counts`).

`step_verdicts(t, profile)` (the game's `PREJUDGE`) answers, from the step's action kind
and its event types, for the checks that can only answer NA there (no event they judge),
following each check's own first lines; for the placement checks (coords, adjacent, edges
that match, river edges) from one look at the cells around the placement; for the
completion checks and CARC-SCORE-TIMING from the turn's scoring the checks share
(`checks.turn_scoring`); at a claim, for the claim checks from the board's shapes.

Either answers OK or NA only, and only where the hook or check itself answers exactly
that; anything else is None ("ask the hook"): every violation, and its message, comes from
the hooks. Where they cannot read a reply they may raise (as a hook would): the lockstep
then asks each hook on its own. `tests/carcassonne/test_fast.py` compares every answer
with the hook's own, on the states and steps of random games of every profile (shared
JSON and fresh), and on corrupted ones met in between.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache
from operator import itemgetter
from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, one_per_value
from gamecert.oracles.carcassonne import bare, checks, tower
from gamecert.oracles.carcassonne.board import (
    FIELD_SPOTS,
    catalogue,
    cells_of,
    tile_totals,
    tower_ids,
)
from gamecert.spec import Profile

JSON = Any
Answer = Verdict | None

# --- state hooks -----------------------------------------------------------------------------
STATE_RULES = ("CARC-TILES", "CARC-TOWER-TILES", "CARC-PLAYERS", "CARC-RIVER-SPRING",
               "CARC-HAND-SIZE", "CARC-MEEPLE-SUPPLY", "CARC-END-POINTS", "CARC-END-TILES",
               "CARC-WINNER", "CARC-TOWER-EXCHANGE", "CARC-TURN-ORDER")
_ABSENT = object()  # a part the state does not have
_AT = itemgetter("at")

# per rule: (profile, the parts the hook read, its verdict), or None (the first two rules'
# slots unused: their memory is `_tiles`)
_memo: list[tuple[Any, ...] | None] = [None] * len(STATE_RULES)


def _remember(i: int, v: Verdict, key: tuple[Any, ...]) -> Answer:
    """`v`, hook i's verdict on the parts `key` (profile first); kept if OK or NA."""
    if v is OK or v is NA:
        _memo[i] = (*key, v)
        return v
    _memo[i] = None
    return None  # a violation: the lockstep asks the hook (its message is the hook's)


# CARC-TILES (and CARC-TOWER-TILES): the last state whose tiles were counted and found
# right (OK), as (profile, its five parts holding tiles, whether no Tower tile was among
# them); held, so the parts' ids stay theirs
_tiles: list[tuple[Any, tuple[Any, ...], bool]] = []


def _tile_answers(s: JSON, p: Profile, parts: tuple[Any, ...], no_towers: bool
                  ) -> tuple[Answer, Answer]:
    """CARC-TILES and CARC-TOWER-TILES. Both are functions of the state's tile counts
    (`tile_totals`: board, hands, deck, river pile, discards), and CARC-TOWER-TILES of
    whether there are towers. When the counts are shown to be those of the last state
    counted and found right (`_same_counts`: a draw moves a tile from the deck to a hand, a
    placement from a hand to the board), CARC-TILES is OK again, and outside the tower
    stage CARC-TOWER-TILES is NA again if that state's counts named no Tower tile and
    there are no towers."""
    last = _tiles[0] if _tiles else None
    if last is not None and last[0] is p and _same_counts(last[1], parts, s):
        _tiles[0] = (p, parts, last[2])
        if last[2] and no_towers and not tower.tower_stage(p):
            return OK, NA
        v = tower.tower_tiles(s, p)
        return OK, (v if v is OK or v is NA else None)
    tiles: Answer = checks.tiles_conserved(s, p)
    if tiles is OK:
        _tiles[:] = [(p, parts, tower_ids().isdisjoint(tile_totals(s)))]
    else:
        _tiles.clear()
        tiles = None  # a violation: the hook's own message
    v = tower.tower_tiles(s, p)
    return tiles, (v if v is OK or v is NA else None)


def _same_counts(old: tuple[Any, ...], new: tuple[Any, ...], s: JSON) -> bool:
    """Do the tile-holding parts `new` (of state `s`) hold each tile as many times as `old`
    (those of a state counted before), with the same tiles named (a count of 0 in a pile
    names its tile)? Shown only for the common changes: the river pile and discards the
    same objects, hands of text tiles recounted, the deck entries that differ, a board that
    is the old one with one entry added at the placed cell (`s["placed"]`, where a board in
    order has it; the others equal). Anything else: False (count afresh)."""
    ob, oh, od, orv, odc = old
    nb, nh, nd, nrv, ndc = new
    if orv is not nrv or odc is not ndc:
        return False
    was: dict[str, int] = {}
    now: dict[str, int] = {}
    try:
        if oh is not nh and not (_add_hands(oh, was) and _add_hands(nh, now)):
            return False
        if od is not nd and not _add_deck_change(od, nd, was, now):
            return False
        if ob is not nb and not _add_placed(ob, nb, s["placed"], now):
            return False
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return False
    return was == now


def _add_hands(hands: Any, into: dict[str, int]) -> bool:
    if type(hands) is not list:
        return False
    for hand in hands:
        if type(hand) is not list:
            return False
        for tile in hand:
            if type(tile) is not str:
                return False
            into[tile] = into.get(tile, 0) + 1
    return True


def _add_deck_change(old: Any, new: Any, was: dict[str, int], now: dict[str, int]) -> bool:
    """The deck entries that differ, each pile's own, into `was` and `now` (an entry the
    same in both adds the same to either count)."""
    if type(old) is not dict or type(new) is not dict:
        return False
    for tile in {k for k, _ in old.items() ^ new.items()}:
        if type(tile) is not str:
            return False
        for pile, into in ((old, was), (new, now)):
            if tile in pile:
                n = pile[tile]
                if type(n) is not int:
                    return False
                into[tile] = into.get(tile, 0) + n
    return True


def _add_placed(old: Any, new: Any, placed: Any, now: dict[str, int]) -> bool:
    """`new` is `old` with one entry added (the others equal, in order): its tile into
    `now`."""
    if type(old) is not list or type(new) is not list or len(new) != len(old) + 1 \
            or type(placed) is not list:
        return False
    i = bisect_left(new, placed, key=_AT)
    if i >= len(new) or new[:i] != old[:i] or new[i + 1:] != old[i:]:
        return False
    entry = new[i]
    if type(entry) is not dict or type(entry.get("tile")) is not str:
        return False
    now[entry["tile"]] = now.get(entry["tile"], 0) + 1
    return True


def state_verdicts(s: JSON, p: Profile) -> tuple[Answer, ...]:
    """The state hooks' verdicts on `s` (STATE_RULES' order), OK or NA, else None."""
    board, hands, deck = s["board"], s["hands"], s["deck"]
    river, discarded, result = s["river_pile"], s["discarded"], s["result"]
    scores, supply = s["scores"], s["supply"]
    towers, prisoners = s.get("towers", _ABSENT), s.get("prisoners", _ABSENT)
    memo = _memo

    tiles, tower_tiles = _tile_answers(s, p, (board, hands, deck, river, discarded),
                                       towers is _ABSENT)
    players, to_move = s["players"], s["to_move"]
    m = memo[2]  # CARC-PLAYERS
    if m is not None and m[0] is p and m[1] is scores and m[2] is supply and m[3] is hands \
            and m[4] is players and m[5] is to_move:
        sized: Answer = m[6]
    else:
        sized = _remember(2, checks.players_sized(s, p), (p, scores, supply, hands, players,
                                                          to_move))
    m = memo[3]  # CARC-RIVER-SPRING
    if m is not None and m[0] is p and m[1] is board:
        spring: Answer = m[2]
    else:
        spring = _remember(3, checks.spring(s, p), (p, board))
    m = memo[4]  # CARC-HAND-SIZE
    if m is not None and m[0] is p and m[1] is hands:
        bound: Answer = m[2]
    else:
        bound = _remember(4, checks.hand_bound(s, p), (p, hands))
    meeples = s["meeples"]
    m = memo[5]  # CARC-MEEPLE-SUPPLY
    if m is not None and m[0] is p and m[1] is prisoners and m[2] is meeples \
            and m[3] is supply:
        owned: Answer = m[4]
    else:
        owned = _remember(5, checks.supply_state(s, p), (p, prisoners, meeples, supply))
    m = memo[6]  # CARC-END-POINTS
    if m is not None and m[0] is p and m[1] is result and m[2] is scores:
        points: Answer = m[3]
    else:
        points = _remember(6, checks.points_open(s, p), (p, result, scores))
    phase, step = s["phase"], s["step"]
    m = memo[7]  # CARC-END-TILES
    if m is not None and m[0] is p and m[1] is deck and m[2] is hands and m[3] is result \
            and m[4] is phase and m[5] is step:
        left: Answer = m[6]
    else:
        left = _remember(7, checks.tiles_left(s, p), (p, deck, hands, result, phase, step))
    # CARC-WINNER: no result, nothing to judge (the hook reads nothing else first)
    winner: Answer = NA if result is None else None
    # CARC-TOWER-EXCHANGE: outside the tower stage, NA before anything is read
    exchange: Answer = None if tower.tower_stage(p) else NA
    # CARC-TURN-ORDER's state hook (the first river turn): cheap, asked as it is
    first = bare.first_river_turn(s, p)
    first_turn: Answer = first if first is OK or first is NA else None
    out = (tiles, tower_tiles, sized, spring, bound, owned, points, left, winner, exchange,
           first_turn)
    return _one(out)


STATE_PREJUDGE = (STATE_RULES, state_verdicts)

_one = one_per_value()  # one tuple per set of answers (the lockstep's lane)


# --- checks ----------------------------------------------------------------------------------
RULES = ("CARC-TURN-ORDER", "CARC-RIVER-DRAW", "CARC-RIVER-CONTIGUOUS", "CARC-RIVER-NO-UTURN",
         "CARC-RIVER-LAKE-ENDS", "CARC-HAND-DEAL", "CARC-HAND-SIZE", "CARC-FEATURE-JOIN",
         "CARC-CLAIM-ONE", "CARC-MEEPLE-RETURN", "CARC-ROAD-COMPLETE", "CARC-TOWN-COMPLETE",
         "CARC-MONASTERY-COMPLETE", "CARC-SCORE-MAJORITY", "CARC-SCORE-INCOMPLETE",
         "CARC-END-POINTS", "CARC-END-TILES", "CARC-TOWER-EXCHANGE", "CARC-BOARD-COORDS",
         "CARC-PLACE-ADJACENT", "CARC-PLACE-MATCH", "CARC-RIVER-MEETS-RIVER",
         "CARC-SCORE-TIMING", "CARC-CLAIM-UNCLAIMED", "CARC-CLAIM-PLACED-TILE",
         "CARC-MEEPLE-SUPPLY", "CARC-FARM-CLAIM", "CARC-DECK-DRAW")
_TURN_ENDS = frozenset({"place", "claim", "pass"})  # the steps `turn_scoring` may judge


@cache
def _hand_numbers(p: Profile) -> tuple[int, int]:
    """CARC-HAND-SIZE's hand_max and draw_per_turn, as `checks.equipment._turn_draws` reads them."""
    return (int(p.param("CARC-HAND-SIZE", "hand_max")),
            int(p.param("CARC-HAND-SIZE", "draw_per_turn")))


@cache
def _restart(p: Profile) -> bool:
    return p.variant("CARC-TURN-ORDER") == "restart"


def step_verdicts(t: Transition, p: Profile) -> tuple[Answer, ...]:
    """The checks' verdicts on step `t` (RULES' order), OK or NA, else None. Each answer
    follows its check's own first lines: the event types it looks for (`_events` reads each
    event's "type" as here), the action kind (`action_kind` names `_is`'s type)."""
    types = [e.get("type") for e in t.events]
    kind = checks.action_kind(t.action)
    b, a = t.before, t.after
    bm, am = b["to_move"], a["to_move"]
    b_phase, a_phase = b["phase"], a["phase"]
    ended = "game-ended" in types
    completed = "feature-completed" in types
    finals = "feature-final" in types
    river_ended = "river-phase-ended" in types

    # CARC-TURN-ORDER: NA unless the mover changed; then the next in order (or the restart)
    if am is None or bm is None or am == bm:
        turn: Answer = NA
    else:
        if river_ended and _restart(p):
            want = 1
        else:
            want = (bm + types.count("turn-skipped")) % checks._n(p) + 1
        turn = OK if am == want else None
    # CARC-RIVER-DRAW: NA off the river phase, and at any other step than a draw that lays
    # no more tiles than its placement
    if b_phase != "river" or (kind != "draw" and len(a["board"]) - len(b["board"])
                              <= (kind == "place")):
        river_draw: Answer = NA
    else:
        river_draw = None
    river_place: Answer = NA if kind != "place" or b_phase != "river" else None
    lake: Answer = NA if b_phase != "river" and a_phase != "river" else None
    deal: Answer = None if river_ended else NA
    if (a_phase != "land" or am is None or am == bm or river_ended
            or a["step"] not in ("draw", "place")):
        hand: Answer = NA
    else:  # CARC-HAND-SIZE's count (`_turn_draws`), its profile's numbers read once
        held = len(a["hands"][am - 1])
        cap, per_turn = _hand_numbers(p)
        n = max(0, min(per_turn, cap - held, sum(a["deck"].values())))
        if a["step"] == "place":
            hand = OK if n == 0 and held > 0 else None
        else:
            hand = OK if a["pending"] == [am] * n else None
    join: Answer = NA if not completed and not finals else None
    placed = types.count("meeple-placed")
    if kind == "claim":
        claim_one: Answer = OK if placed == 1 and a["step"] != "claim" else None
    elif kind == "pass":
        claim_one = OK if not placed and a["step"] != "claim" else None
    else:
        claim_one = NA if not placed else None
    back: Answer = NA if not completed and not ended else None
    # the completion checks and CARC-SCORE-TIMING, where no feature-completed event is to
    # be judged: from the turn's scoring (`turn_scoring`, None off a placement and off the
    # end of a claim step; shared with the checks, which ask it for the same step)
    road: Answer = None
    town: Answer = None
    monastery: Answer = None
    timing: Answer = None
    if not completed:
        if kind not in _TURN_ENDS or (kind != "place" and b["step"] != "claim"):
            road = town = monastery = timing = NA
        else:
            scoring = checks.turn_scoring(t, p)
            if scoring is None or not scoring.completed:
                road = town = monastery = timing = NA
            else:
                road, town, monastery = (_completion(scoring, k)
                                         for k in ("road", "city", "monastery"))
                timing = OK if not scoring.early and not scoring.late else None
    majority: Answer = NA if not completed and not finals and "farm-scored" not in types \
        else None
    incomplete: Answer = NA if not ended and not finals else None
    points: Answer = None if ended else NA
    skipped: Answer = None if "turn-skipped" in types else NA
    exchange: Answer = NA if not tower.tower_stage(p) or (
        "prisoners-exchanged" not in types and kind != "exchange") else None
    coords = adjacent = match = None
    if kind == "place":
        coords, adjacent, match = _placement(t, types)
    claim = _claim(t, types, p) if kind == "claim" else (NA, NA, NA, NA)
    out = (turn, river_draw, river_place, river_place, lake, deal, hand, join, claim_one,
           back, road, town, monastery, majority, incomplete, points, skipped,
           exchange, coords, adjacent, match, match, timing, *claim,
           NA if kind != "draw" else None)  # CARC-DECK-DRAW: judged at a draw only
    return _one(out)


def _claim(t: Transition, types: list[Any], p: Profile
           ) -> tuple[Answer, Answer, Answer, Answer]:
    """At a claim: CARC-CLAIM-UNCLAIMED, CARC-CLAIM-PLACED-TILE, CARC-MEEPLE-SUPPLY and
    CARC-FARM-CLAIM."""
    b, on = t.before, t.action.get("on")
    field = on in FIELD_SPOTS
    supply: Answer = OK if b["supply"][b["to_move"] - 1] > 0 else None
    placed_tile: Answer = None
    if "meeple-placed" in types:
        e = t.events[types.index("meeple-placed")]
        kinds = ("road", "city", "monastery", *(("field",) if checks.farms(p) else ()))
        placed_tile = OK if e["at"] == b["placed"] and e["feature"] in kinds else None
    unclaimed = NA if field else _unclaimed(b, on)
    return unclaimed, placed_tile, supply, (None if field else NA)


def _unclaimed(b: JSON, on: Any) -> Answer:
    """CARC-CLAIM-UNCLAIMED for a claim on road, town or monastery `on` in state `b`, from
    the board's shapes (no copies of them with their meeples): the feature at the spot holds
    a meeple when a meeple's own spot is on the same shape, as `Board._count_meeples` counts
    them (each meeple read as it reads them, so an unreadable one raises here too)."""
    if b["step"] != "claim" or b["placed"] is None:
        return OK  # no claim target: the check's `_claim_target` is None
    bd = checks.board(b)
    _, index = bd._shapes()
    held = [0] * bd.players  # as a feature's meeples are counted
    holding: set[int] = set()  # the ids of the shapes that hold meeples (held in `index`)
    cells = bd.cells
    for m in b["meeples"]:
        c = (m["at"][0], m["at"][1])
        part = bd.part_at(c, m["on"]) if c in cells else None
        if part is not None:
            shape = index[(c, part)]
            held[m["player"] - 1] += 1
            holding.add(id(shape))
    placed = b["placed"]
    cell = (placed[0], placed[1])
    i = bd.part_at(cell, on)
    if i is None:
        return OK
    target = index[(cell, i)]
    if target.kind == "field":
        return OK  # a field: CARC-FARM-CLAIM's
    if id(target) in holding:
        return None  # already held: the check's finding
    for spot in b["claim_blocked"]:
        j = bd.part_at(cell, spot)
        if j is not None and index[(cell, j)] is target:
            return None  # scored at placement this turn: the check's finding
    return OK


def _completion(scoring: checks.TurnScoring, kind: str) -> Answer:
    """A completion check of `kind` at a step with no feature-completed event: NA if the
    turn completed no feature of that kind, OK if none of them is missing."""
    if all(f.kind != kind for f in scoring.completed):
        return NA
    return OK if all(f.kind != kind for f in scoring.missing) else None


def _placement(t: Transition, types: list[Any]) -> tuple[Answer, Answer, Answer]:
    """CARC-BOARD-COORDS, CARC-PLACE-ADJACENT, and both edge checks (CARC-PLACE-MATCH and
    CARC-RIVER-MEETS-RIVER: every edge that faces a tile is the same edge) at a placement."""
    act = t.action
    at = act["at"]
    bd, cell = checks.board(t.before), (at[0], at[1])
    if cell in bd.cells:
        return None, None, None  # an occupied cell: the checks' own findings
    edges = catalogue()[act["tile"]].edges
    rotation = act["rotation"]
    touching, same = False, True
    for s in range(4):
        theirs = bd.edge_at(bd.neighbour(cell, s), (s + 2) % 4)
        mine = edges[(s - rotation) % 4]
        if theirs is not None:
            touching = True
            if theirs != mine:
                same = False
    return _coords(t, types), (OK if touching else None), (OK if same else None)


def _coords(t: Transition, types: list[Any]) -> Answer:
    """CARC-BOARD-COORDS: the placed entry is on the board (found where a board in order
    has it), no two entries share a cell (their cells, [x, y] read as (x, y), are as many
    as the entries: then their `at`s differ too), one tile-placed event as the action."""
    act, board = t.action, t.after["board"]
    at = act["at"]
    entry = {"at": at, "tile": act["tile"], "rotation": act["rotation"]}
    i = bisect_left(board, at, key=_AT)
    if i >= len(board) or board[i] != entry:
        return None
    if len(cells_of(board)) != len(board):
        return None
    if types.count("tile-placed") != 1:
        return None
    e = t.events[types.index("tile-placed")]
    return OK if e["at"] == at and e["rotation"] == act["rotation"] else None


PREJUDGE = (RULES, step_verdicts)
