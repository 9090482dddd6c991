"""One oracle per Carcassonne rule id (`spec/carcassonne.json`), on canonical JSON only."""

from __future__ import annotations

import json
import re
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from functools import cache
from operator import itemgetter
from typing import Any

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
from gamecert.oracles.carcassonne import bare, bare_scoring
from gamecert.oracles.carcassonne.board import (
    FIELD_SPOTS,
    SIDES,
    Board,
    Cell,
    Feature,
    catalogue,
    feature_key,
    hand_fits,
    river_sides,
    tile_totals,
    tower_ids,
)
from gamecert.oracles.weights import by_copies
from gamecert.schemas import first_error
from gamecert.spec import Profile

JSON = Any
COMPLETE_KIND = {"CARC-ROAD-COMPLETE": "road", "CARC-TOWN-COMPLETE": "city",
                 "CARC-MONASTERY-COMPLETE": "monastery"}
PLACED_ON = {"top_edge": "top", "right_edge": "right", "bottom_edge": "bottom",
             "left_edge": "left", "MONASTARY": "monastery"}
# gamecert's protocol extension (schemas/carcassonne-bot-ext.schema.json): fields by half-edge
FIELD_PLACED_ON = {"top_left_field": "top1", "top_right_field": "top2",
                   "right_top_field": "right1", "right_bottom_field": "right2",
                   "bottom_right_field": "bottom1", "bottom_left_field": "bottom2",
                   "left_bottom_field": "left1", "left_top_field": "left2",
                   "enclosed_field": "field"}

_boards: OrderedDict[int, tuple[JSON, Board]] = OrderedDict()


def board(state: JSON, p: Profile | None = None) -> Board:
    """The analysis of `state`, shared by the oracles that look at the same transition;
    with `p`, its fields are joined as `p` reads CARC-FARM-FIELDS (a season's reading)."""
    hit = _boards.get(id(state))
    if hit is not None and hit[0] is state and (p is None or hit[1].river_joins == (
            p.variant("CARC-FARM-FIELDS") == "river-joins")):
        return hit[1]
    b = Board(state, profile=p)
    _boards[id(state)] = (state, b)  # holding `state` keeps its id from being reused
    if len(_boards) > 8:
        _boards.popitem(last=False)
    return b


@cache  # a profile's facts: asked at every step (profiles are frozen, hashed by identity)
def _n(p: Profile) -> int:
    players: int = p.param("CARC-PLAYERS", "players")
    return players


def _events(t: Transition, *types: str) -> list[JSON]:
    return [e for e in t.events if e.get("type") in types]


def _cell(xy: list[int]) -> Cell:
    return xy[0], xy[1]


def _is(t: Transition, kind: str) -> bool:
    return isinstance(t.action, dict) and t.action.get("type") == kind


def action_kind(action: JSON) -> str:
    """The kind of a step, from its action alone (the oracles' `on` sets name these): its
    type, as `_is` reads it; "" for an action without a text type, which no `on` names."""
    kind = action.get("type") if isinstance(action, dict) else None
    return kind if isinstance(kind, str) else ""


# The checks bound to kinds of step answer NA at any other before reading the reply.
PLACE, DRAW, CLAIM = frozenset({"place"}), frozenset({"draw"}), frozenset({"claim"})


def _action_of(action: JSON, kind: str) -> bool:
    """`action` is a well-formed action of this kind (judges also see malformed probes)."""
    return (isinstance(action, dict) and action.get("type") == kind
            and first_error("carcassonne-action", action) is None)


# --- equipment, players, board ---------------------------------------------------------------
def tiles_conserved(s: JSON, p: Profile) -> Verdict:
    """The land and River tiles are all somewhere (the Tower tiles: CARC-TOWER-TILES)."""
    want = _land_counts()
    totals = tile_totals(s)
    if dict.__eq__(totals, want) is True:  # the common case, compared in C: no diff, no extra
        return OK
    # a Tower tile is never in `want`: its count here is CARC-TOWER-TILES's
    diff = {k: totals.get(k, 0) - n for k, n in want.items() if totals.get(k, 0) != n}
    extra: list[str] = []
    if (totals.keys() - want.keys()) - tower_ids():  # rare: as first written
        cat = catalogue()
        got = {k: n for k, n in totals.items() if k not in cat or cat[k].set != "tower"}
        extra = sorted(set(got) - set(want))
    return expect(not diff and not extra, f"tile counts off by {diff} {extra or ''} (board + "
                                           f"hands + piles + discards must hold the set)")


@cache
def _land_counts() -> dict[str, int]:
    """The land and River tiles of the catalogue, with their counts (read only)."""
    return {tid: info.count for tid, info in catalogue().items() if info.set != "tower"}


def players_sized(a: JSON, p: Profile) -> Verdict:
    n = _n(p)
    sizes = {len(a["scores"]), len(a["supply"]), len(a["hands"]), a["players"]}
    if sizes != {n}:
        return Violation(f"per-player lists have sizes {sorted(sizes)}, the profile has {n}")
    return expect(a["to_move"] is None or 1 <= a["to_move"] <= n,
                  f"to_move {a['to_move']} is not a player 1-{n}")


def turn_order(t: Transition, p: Profile) -> Verdict:
    b, a = t.before, t.after
    if a["to_move"] is None or b["to_move"] is None or a["to_move"] == b["to_move"]:
        return NA
    n = _n(p)
    if _events(t, "river-phase-ended") and p.variant("CARC-TURN-ORDER") == "restart":
        want = 1
    else:
        skips = len(_events(t, "turn-skipped"))
        want = (b["to_move"] + skips) % n + 1
    return expect(a["to_move"] == want, f"player {a['to_move']} moves after player "
                                        f"{b['to_move']}; the turn order gives {want}")


def coords(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "place"):
        return NA
    act = t.action
    entry = {"at": act["at"], "tile": act["tile"], "rotation": act["rotation"]}
    if entry not in t.after["board"]:
        return Violation(f"the board lacks the placed {entry}")
    placed = _events(t, "tile-placed")
    cells = list(map(tuple, map(_AT, t.after["board"])))  # tuple(b["at"]) of each, in order
    if len(set(cells)) != len(cells):
        return Violation("two tiles share a cell")
    return expect(len(placed) == 1 and placed[0]["at"] == act["at"]
                  and placed[0]["rotation"] == act["rotation"],
                  f"tile-placed event {placed} does not match the action {act}")


_AT = itemgetter("at")


def spring(s: JSON, p: Profile) -> Verdict:
    ok = {"at": [0, 0], "tile": "RS", "rotation": 0} in s["board"]
    return expect(ok, "the spring is not at [0, 0] with rotation 0")


# --- the river -------------------------------------------------------------------------------
def river_draw(t: Transition, p: Profile) -> Verdict:
    """A river turn draws one river tile for the player to move, and lays it: no other tile
    goes on the board in any step of the river phase (the lake laid inside another player's
    turn, by the engine, is not a turn of its own)."""
    b = t.before
    if b["phase"] != "river":
        return NA
    extra = len(t.after["board"]) - len(b["board"]) - _is(t, "place")
    if extra > 0:
        added = [e for e in t.after["board"] if e not in b["board"]
                 and not (_is(t, "place") and e["at"] == t.action["at"])]
        laid = ", ".join(f"{e['tile']} at {e['at']}" for e in added)
        return cause("tile-laid-without-turn",
                     f"after a {t.action.get('type')}, {laid or f'{extra} more tiles'} went "
                     f"on the board in the same step: a river turn draws one tile and lays it")
    if not _is(t, "draw"):
        return NA
    tile = t.action["tile"]
    if catalogue()[tile].set != "river":
        return Violation(f"{tile} drawn in the river phase is not a river tile")
    if b["pending"] != [b["to_move"]]:
        return Violation(f"a river turn draws one tile for the player to move, pending "
                         f"{b['pending']}")
    return expect(t.after["hands"][b["to_move"] - 1] == [tile],
                  f"player {b['to_move']} should hold just the drawn {tile}")


def river_draw_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    """A draw of a land tile accepted while the river phase lasts (land tiles are not dealt
    yet)."""
    if (not accepted or not _action_of(action, "draw") or state["phase"] != "river"
            or state["step"] != "draw" or action["tile"] not in catalogue()):
        return NA
    tile = action["tile"]
    return OK if catalogue()[tile].set == "river" else cause(
        "land-tile-in-river-phase", f"the engine drew the land tile {tile} while the river "
                                    f"phase lasts")


def _river_place(t: Transition) -> bool:
    return _is(t, "place") and t.before["phase"] == "river"


def river_contiguous(t: Transition, p: Profile) -> Verdict:
    if not _river_place(t):
        return NA
    course = board(t.before).course()
    return expect(course.open_cell is not None and _cell(t.action["at"]) == course.open_cell,
                  f"river tile at {t.action['at']}, but the river continues at "
                  f"{course.open_cell}")


def _edge_problem(state: JSON, action: JSON, river: bool) -> Verdict | None:
    """The first edge of a placement that faces a different edge: among the pairs with a river
    edge (CARC-RIVER-MEETS-RIVER) or among the others (CARC-PLACE-MATCH)."""
    bd, cell = board(state), _cell(action["at"])
    if cell in bd.cells:
        return None  # an occupied cell is CARC-PLACE-ADJACENT's finding
    edges = catalogue()[action["tile"]].edges
    for s in range(4):
        theirs = bd.edge_at(bd.neighbour(cell, s), (s + 2) % 4)
        mine = edges[(s - action["rotation"]) % 4]
        if theirs is None or theirs == mine or ("river" in (theirs, mine)) != river:
            continue
        return Violation(f"{action['tile']} at {action['at']} rotation {action['rotation']}: "
                         f"its {SIDES[s]} edge ({mine}) faces a {theirs} edge")
    return None


def river_meets_river(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "place"):
        return NA
    return _edge_problem(t.before, t.action, river=True) or OK


def uturn_verdict(before: JSON, tile: str, cell: Cell, rotation: int, variant: str) -> Verdict:
    """CARC-RIVER-NO-UTURN for one river placement at the river's open end."""
    bd = board(before)
    course = bd.course()
    sides = river_sides(tile, rotation)
    entry = (course.flow + 2) % 4
    if len(sides) != 2 or entry not in sides:
        return NA
    out = sides[0] if sides[1] == entry else sides[1]
    turn = (out - course.flow) % 4
    last = course.turns[-1] if course.turns else 0
    curves = [x for x in course.turns if x]
    last_curve = curves[-1] if curves else 0
    if turn and variant == "alternate" and turn == last_curve:
        return Violation(f"{tile} at {list(cell)} turns the same way as the previous curve")
    if turn and variant != "alternate" and turn == last:
        return Violation(f"{tile} at {list(cell)} turns the same way as the tile before: U-turn")
    ahead = bd.neighbour(cell, out)
    if variant == "lookahead" and ahead in bd.cells:
        return Violation(f"{tile} at {list(cell)} sends the river into the tile at {ahead}")
    return OK


def river_no_uturn(t: Transition, p: Profile) -> Verdict:
    if not _river_place(t):
        return NA
    act = t.action
    return uturn_verdict(t.before, act["tile"], _cell(act["at"]), act["rotation"],
                         p.variant("CARC-RIVER-NO-UTURN"))


def lake_ends(t: Transition, p: Profile) -> Verdict:
    b, a = t.before, t.after
    lake_last = p.variant("CARC-RIVER-LAKE-ENDS") == "lake-last"
    if b["phase"] == "river" and _is(t, "draw") and t.action["tile"] == "RE":
        others = sum(n for k, n in b["river_pile"].items() if k != "RE")
        return expect(not lake_last or others == 0,
                      f"the lake was drawn with {others} other river tiles left (lake-last)")
    if a["phase"] == "river" and board(a).course().open_cell is None:
        return expect(a["step"] == "claim", "the lake is placed but the river phase goes on")
    if b["phase"] != "river" or a["phase"] == "river":
        return NA
    ended = _events(t, "river-phase-ended")
    if len(ended) != 1:
        return Violation("the river phase ended without a river-phase-ended event")
    closed = board(a).course().open_cell is None
    # no river tile left to play: the pile is empty and none is held (the last one drawn may
    # have been discarded because it fit nowhere)
    river_held = any(catalogue()[k].set == "river" for h in a["hands"] for k in h)
    pile_empty = not b["river_pile"] and not river_held
    if not (closed or pile_empty):
        return Violation("the river phase ended with the river open and river tiles left")
    left = sorted(k for k, n in b["river_pile"].items() for _ in range(n))
    return expect(ended[0]["removed"] == left,
                  f"river tiles removed {ended[0]['removed']}, the pile held {left}")


def lake_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    """Under lake-last, a draw of the lake is allowed only once it is the last river tile."""
    if (not _action_of(action, "draw") or action["tile"] != "RE" or state["phase"] != "river"
            or state["step"] != "draw" or not state["river_pile"].get("RE")):
        return NA
    others = sum(n for k, n in state["river_pile"].items() if k != "RE")
    allowed = p.variant("CARC-RIVER-LAKE-ENDS") != "lake-last" or others == 0
    return expect(allowed or not accepted,
                  f"the engine let the lake be drawn with {others} other river tiles left "
                  f"(lake-last)")


# --- tiles and hands -------------------------------------------------------------------------
def deck_draw(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "draw"):
        return NA
    b, a, tile = t.before, t.after, t.action["tile"]
    pile = "river_pile" if b["phase"] == "river" else "deck"
    had = b[pile].get(tile, 0)
    if had <= 0:
        return Violation(f"{tile} was drawn but the {pile} held none")
    now = a[pile].get(tile, 0)
    if now != had - 1:
        return Violation(f"the {pile} held {had} {tile}, after the draw {now}")
    who = b["pending"][0]
    return expect(a["hands"][who - 1].count(tile) == b["hands"][who - 1].count(tile) + 1,
                  f"player {who} did not receive the drawn {tile}")


def _turn_draws(p: Profile, hand: int, deck: int) -> int:
    """CARC-HAND-SIZE: tiles drawn at the start of a land turn with `hand` tiles in hand."""
    cap = int(p.param("CARC-HAND-SIZE", "hand_max"))
    return max(0, min(int(p.param("CARC-HAND-SIZE", "draw_per_turn")), cap - hand, deck))


def opening_deal(t: Transition, p: Profile) -> Verdict:
    """The deal in player order, then the first land turn's own draws (checked here, not by
    CARC-HAND-SIZE, so a wrong deal is reported once)."""
    if not _events(t, "river-phase-ended"):
        return NA
    a = t.after
    if a["to_move"] is None:
        return NA
    deal = p.param("CARC-HAND-DEAL", "opening_deal")
    cap = p.param("CARC-HAND-SIZE", "hand_max")
    left = sum(a["deck"].values())
    sizes = [len(h) for h in a["hands"]]
    want: list[int] = []
    for player in range(1, _n(p) + 1):
        k = max(0, min(deal, cap - sizes[player - 1], left))
        want += [player] * k
        sizes[player - 1] += k
        left -= k
    first = a["to_move"]
    want += [first] * _turn_draws(p, sizes[first - 1], left)
    return expect(a["pending"] == want,
                  f"opening deal and first draws pending {a['pending']}, expected {want}")


def hand_bound(a: JSON, p: Profile) -> Verdict:
    cap = p.param("CARC-HAND-SIZE", "hand_max")
    sizes = [len(h) for h in a["hands"]]
    return expect(max(sizes) <= cap, f"hand sizes {sizes} exceed {cap}")


def hand_size(t: Transition, p: Profile) -> Verdict:
    """At the start of each land turn the player draws exactly what the rule allows."""
    a, b = t.after, t.before
    if (a["phase"] != "land" or a["to_move"] is None or a["to_move"] == b["to_move"]
            or _events(t, "river-phase-ended") or a["step"] not in ("draw", "place")):
        return NA
    player = a["to_move"]
    hand = len(a["hands"][player - 1])
    n = _turn_draws(p, hand, sum(a["deck"].values()))
    if a["step"] == "place":
        return expect(n == 0 and hand > 0,
                      f"player {player} starts the turn with {hand} tiles and draws nothing; "
                      f"the rule draws {n}")
    return expect(a["pending"] == [player] * n,
                  f"player {player} starts the turn with {hand} tiles and draws "
                  f"{len(a['pending'])} (pending {a['pending']}); the rule draws {n}")


def _nothing_fits(state: JSON, p: Profile) -> bool:
    hand = state["hands"][state["to_move"] - 1]
    bd = board(state)
    if state["phase"] != "river":
        return not hand_fits(bd, hand)
    cell = bd.course().open_cell
    if cell is None:
        return True
    variant = p.variant("CARC-RIVER-NO-UTURN")
    return not any(bd.mismatch(tile, cell, r) is None
                   and not isinstance(uturn_verdict(state, tile, cell, r, variant), Violation)
                   for tile in set(hand) for r in range(4))


def nofit(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "discard"):
        return NA
    if not _nothing_fits(t.before, p):
        return Violation("a tile was discarded although a tile of the hand fits")
    tile = t.action["tile"]
    return expect(t.after["discarded"].count(tile) == t.before["discarded"].count(tile) + 1,
                  f"the discarded {tile} is not among the discarded tiles")


def nofit_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    if not _action_of(action, "discard"):
        return NA
    if state["step"] != "place" or action.get("tile") not in state["hands"][state["to_move"] - 1]:
        return NA
    allowed = _nothing_fits(state, p)
    if accepted and not allowed:
        return Violation("the engine accepted a discard while a tile of the hand fits")
    return expect(accepted or not allowed, "the engine refused the discard although no tile of "
                                           "the hand fits anywhere")


# --- placement -------------------------------------------------------------------------------
def adjacent(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "place"):
        return NA
    return _adjacent_problem(t.before, t.action) or OK


def _adjacent_problem(state: JSON, action: JSON) -> Verdict | None:
    bd, cell = board(state), _cell(action["at"])
    if cell in bd.cells:
        return Violation(f"{action['at']} already held a tile")
    if not any(bd.neighbour(cell, s) in bd.cells for s in range(4)):
        return Violation(f"{action['at']} touches no placed tile")
    return None


def _match_problem(state: JSON, action: JSON) -> Verdict | None:
    return _edge_problem(state, action, river=False)


def match(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "place"):
        return NA
    return _match_problem(t.before, t.action) or OK


def _place_judge(problem: Any) -> Any:
    def judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
        if not accepted or not _action_of(action, "place"):
            return NA
        if state["step"] != "place" or action["tile"] not in catalogue():
            return NA
        return problem(state, action, p) or OK
    return judge


def _river_cell_problem(state: JSON, action: JSON, p: Profile) -> Verdict | None:
    if state["phase"] != "river":
        return None
    open_cell = board(state).course().open_cell
    if _cell(action["at"]) != open_cell:
        return Violation(f"accepted a river tile at {action['at']}; the river continues at "
                         f"{open_cell}")
    return None


def _uturn_problem(state: JSON, action: JSON, p: Profile) -> Verdict | None:
    if state["phase"] != "river" or _cell(action["at"]) != board(state).course().open_cell:
        return None
    v = uturn_verdict(state, action["tile"], _cell(action["at"]), action["rotation"],
                      p.variant("CARC-RIVER-NO-UTURN"))
    return v if isinstance(v, Violation) else None


# --- features and claims ---------------------------------------------------------------------
def _key(kind: str, tiles: list[list[int]]) -> tuple[str, tuple[tuple[int, ...], ...]]:
    return feature_key(kind, tiles)


def _find(bd: Board, e: JSON) -> Feature | None:
    """The board feature an event names: same kind and tiles, preferring one complete exactly
    when the event says it was completed (a tile can hold several roads, so tiles alone can be
    ambiguous). None when no feature covers those tiles: CARC-FEATURE-JOIN's finding."""
    tiles = sorted(e["tiles"])
    complete = e.get("type") == "feature-completed"
    # (a tile list equal to `tiles` is as long: its tiles are a set of as many cells)
    n = len(tiles)
    found = [f for f in bd.features()
             if f.kind == e["feature"] and len(f.tiles) == n and f.tile_list() == tiles]
    for f in found:
        if f.complete == complete:
            return f
    return found[0] if found else None


def feature_join(t: Transition, p: Profile) -> Verdict:
    """A scored feature is one feature of the board as joined: its tiles and banners."""
    events = _events(t, "feature-completed", "feature-final")
    if not events:
        return NA
    bd = board(t.after)
    for e in events:
        f = _find(bd, e)
        if f is None:
            return Violation(f"no {e['feature']} on the board covers exactly {e['tiles']}")
        if f.banners != e["banners"]:
            return Violation(f"the {e['feature']} at {e['tiles'][0]} has {f.banners} banners, "
                             f"the event says {e['banners']}")
    return OK


def claim_one(t: Transition, p: Profile) -> Verdict:
    placed = _events(t, "meeple-placed")
    if _is(t, "claim"):
        return expect(len(placed) == 1 and t.after["step"] != "claim",
                      "a claim must place exactly one meeple and end the claim step")
    if _is(t, "pass"):
        return expect(not placed and t.after["step"] != "claim", "a pass must place no meeple")
    return expect(not placed, "only a claim places a meeple") if placed else NA


def claim_placed_tile(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "claim"):
        return NA
    placed = _events(t, "meeple-placed")
    if not placed or placed[0]["at"] != t.before["placed"]:
        return Violation(f"the meeple went to {placed[0]['at'] if placed else None}, not on the "
                         f"tile just placed {t.before['placed']}")
    kinds = ("road", "city", "monastery", *(("field",) if farms(p) else ()))
    return expect(placed[0]["feature"] in kinds, f"a meeple was put on a {placed[0]['feature']}")


@cache
def farms(p: Profile) -> bool:
    """The farms stage is played (CARC-FARM-FIELDS.enabled)."""
    return bool(p.param("CARC-FARM-FIELDS", "enabled"))


def _claim_target(state: JSON, action: JSON, p: Profile) -> Feature | None:
    """The road, town, monastery or (farms stage) field a claim names on the placed tile."""
    if state["step"] != "claim" or state["placed"] is None:
        return None
    if action["on"] in FIELD_SPOTS:
        return board(state, p).field_at(_cell(state["placed"]), action["on"]) if farms(p) \
            else None
    return board(state).feature_at(_cell(state["placed"]), action["on"])


def claim_unclaimed(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "claim"):
        return NA
    if t.action.get("on") in FIELD_SPOTS:
        return NA  # a farmer: CARC-FARM-CLAIM's
    return _unclaimed_problem(t.before, t.action, p) or OK


def _unclaimed_problem(state: JSON, action: JSON, p: Profile) -> Verdict | None:
    f = _claim_target(state, action, p)
    if f is None or f.kind == "field":
        return None  # nothing there to claim: CARC-CLAIM-PLACED-TILE's; a field: FARM-CLAIM's
    if any(f.meeples):
        return Violation(f"the {f.kind} already held meeples {f.meeples}")
    bd = board(state)
    blocked = [bd.feature_at(_cell(state["placed"]), s) for s in state["claim_blocked"]]
    if any(f is g for g in blocked):
        return Violation(f"the {f.kind} was scored at placement this turn")
    return None


def _claim_judge(problem: Any) -> Any:
    def judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
        if not accepted or not _action_of(action, "claim"):
            return NA
        return problem(state, action, p) or OK
    return judge


def _placed_tile_problem(state: JSON, action: JSON, p: Profile) -> Verdict | None:
    if state["step"] != "claim":
        return Violation("a claim was accepted outside the claim step")
    return None if _claim_target(state, action, p) else Violation(
        f"accepted a claim on {action['on']!r}, where the placed tile has no road, town, "
        f"monastery{' or field' if farms(p) else ''}")


def supply_state(a: JSON, p: Profile) -> Verdict:
    if "prisoners" in a:
        return NA  # the tower stage also counts prisoners and towers: CARC-TOWER-MEEPLES
    total = _meeples(p)
    n = _n(p)
    on_board = [0] * n
    for m in a["meeples"]:
        on_board[m["player"] - 1] += 1
    bad = [i + 1 for i in range(n) if on_board[i] + a["supply"][i] != total]
    return expect(not bad, f"players {bad} do not own {total} meeples (board {on_board}, "
                           f"supply {a['supply']})")


@cache
def _meeples(p: Profile) -> Any:
    return p.param("CARC-MEEPLE-SUPPLY", "meeples")


def supply(t: Transition, p: Profile) -> Verdict:
    if not _is(t, "claim"):
        return NA
    return expect(t.before["supply"][t.before["to_move"] - 1] > 0,
                  "a player with an empty supply claimed a feature")


def supply_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    if not accepted or not _action_of(action, "claim") or state["to_move"] is None:
        return NA
    return expect(state["supply"][state["to_move"] - 1] > 0,
                  "the engine accepted a claim from a player with no meeple in the supply")


def meeple_return(t: Transition, p: Profile) -> Verdict:
    """No meeple stays on a feature scored in this transition, nor on the board once the game
    is over. (Whether a feature should have been scored is the completion rules' finding.)"""
    done = _events(t, "feature-completed")
    ended = _events(t, "game-ended")
    if not done and not ended:
        return NA
    a = t.after
    if ended and a["meeples"]:
        return Violation(f"{len(a['meeples'])} meeples stay on the board after the final "
                         f"scoring")
    bd = board(a)
    finals = {_key(e["feature"], e["tiles"]) for e in _events(t, "feature-final")}
    for e in done:
        key = _key(e["feature"], e["tiles"])
        same = [f for f in bd.features() if f.key() == key]
        if same and all(any(f.meeples) for f in same):
            return Violation(f"meeples {same[0].meeples} stay on the {e['feature']} at "
                             f"{e['tiles'][0]} scored this turn")
        if key in finals and any(e["meeples"]):
            # scored again at the end of the game: its meeples were still there
            return Violation(f"the meeples on the {e['feature']} at {e['tiles'][0]} were not "
                             f"returned when it was completed: it is scored again at the end")
    return OK


def _value(kind: str, tiles: int, banners: int, present: int, p: Profile,
           complete: bool) -> int:
    """What the catalogue says a feature is worth (CARC-*-COMPLETE, CARC-SCORE-INCOMPLETE)."""
    def param(rule: str, name: str) -> int:
        return int(p.param(rule, name))
    if complete:
        if kind == "road":
            return tiles * param("CARC-ROAD-COMPLETE", "points_per_tile")
        if kind == "city":
            return (tiles * param("CARC-TOWN-COMPLETE", "points_per_tile")
                    + banners * param("CARC-TOWN-COMPLETE", "points_per_banner"))
        return param("CARC-MONASTERY-COMPLETE", "points")
    r = "CARC-SCORE-INCOMPLETE"
    if kind == "road":
        return tiles * param(r, "road_per_tile")
    if kind == "city":
        return tiles * param(r, "town_per_tile") + banners * param(r, "town_per_banner")
    return present * param(r, "monastery_per_tile")


@dataclass
class TurnScoring:
    """Which features the tile of this turn completed, and when each was scored."""

    completed: list[Feature] = field(default_factory=list)
    missing: list[Feature] = field(default_factory=list)  # completed, never scored
    early: list[str] = field(default_factory=list)  # scored before the time the rule says
    late: list[str] = field(default_factory=list)  # scored after it


_turns: list[tuple[Transition, TurnScoring | None]] = []


def turn_scoring(t: Transition, p: Profile) -> TurnScoring | None:
    """The scoring of the turn, judged where it ends: at the placement (when it ends the game,
    or for what must score at once) and at the end of the claim step. None for transitions
    that neither place a tile nor end a claim step.

    At-placement timing: a completed feature holding meeples, or a monastery off the placed
    tile, scores at the placement; a completed feature of the placed tile holding none waits
    for the claim step. After-claim timing: all of it at the end of the claim step. A feature
    due at the placement and not scored there is called missing (the completion rule of its
    kind): the lockstep stops at the first transition that differs, so this is where it must
    be named, and an engine that never sees the completion is the likelier bug than one that
    scores it late. A score at the claim step of a feature due earlier is CARC-SCORE-TIMING.
    """
    for seen, result in _turns:
        if seen is t:
            return result
    result = _turn_scoring(t, p)
    _turns[:] = [(t, result)]  # the three completion oracles and timing share one analysis
    return result


def _turn_scoring(t: Transition, p: Profile) -> TurnScoring | None:
    at_place = _is(t, "place")
    claim_end = (_is(t, "claim") or _is(t, "pass")) and t.before["step"] == "claim"
    if not at_place and not claim_end:
        return None
    cell = _cell(t.action["at"] if at_place else t.before["placed"])
    bd = board(t.after)
    if cell not in bd.cells:
        return None  # the tile is not on the board: CARC-BOARD-COORDS's finding
    after_claim = p.variant("CARC-SCORE-TIMING") == "after-claim"
    events: dict[tuple[str, tuple[tuple[int, ...], ...]], JSON] = {
        _key(e["feature"], e["tiles"]): e for e in _events(t, "feature-completed")}
    if not bd.completes_any(cell):  # most turns: nothing completed, nothing due (shapes only)
        out = TurnScoring([])
        if at_place and after_claim:
            out.early += [f"the {e['feature']} at {e['tiles'][0]} (after-claim scores after "
                          f"the claim step)" for e in events.values()]
        return out
    on_tile = bd.features_on(cell)
    completed: list[Feature] = []
    for f in on_tile + bd.monasteries_near(cell):
        if f.complete and all(f is not g for g in completed):
            completed.append(f)
    # an event naming no board feature is CARC-FEATURE-JOIN's: do not call its kind missing
    # (no event, the common case: no need to key every feature of the board)
    unjoined: set[str] = set()
    if events:
        keys = {f.key() for f in bd.features()}
        unjoined = {k[0] for k in events if k not in keys}
    out = TurnScoring(completed)
    ended = bool(_events(t, "game-ended"))

    def where(f: Feature) -> str:
        return f"the {f.kind} at {f.tile_list()[0]}"

    if at_place:
        if after_claim:
            out.early += [f"the {e['feature']} at {e['tiles'][0]} (after-claim scores after "
                          f"the claim step)" for e in events.values()]
            return out
        # the features that held meeples before the tile came, as joined now
        holders = [bd.feature_at(_cell(m["at"]), m["on"]) for m in t.before["meeples"]
                   if _cell(m["at"]) in bd.cells]
        for f in completed:
            e = events.get(f.key())
            due_now = (ended or any(f is g for g in holders)
                       or all(f is not g for g in on_tile))
            if e is None:
                if due_now and f.kind not in unjoined:
                    out.missing.append(f)
            elif (not ended and any(f is g for g in on_tile) and not any(e["meeples"])):
                out.early.append(f"{where(f)}, held by nobody, scored at the placement "
                                 f"before its claim step")
        return out
    if not completed:
        return out  # nothing completed: nothing to be missing, early or late
    before = {f.key(): f for f in board(t.before).features()}
    blocked = set()
    for spot in t.before["claim_blocked"]:
        g = board(t.before).feature_at(cell, spot)
        if g is not None:
            blocked.add(g.key())
    for f in completed:
        key = f.key()
        e = events.get(key)
        prior = before.get(key)
        held = prior is not None and any(prior.meeples)
        off_tile = all(f is not g for g in on_tile)
        if after_claim:
            if e is None and f.kind not in unjoined:
                out.missing.append(f)
        elif e is not None:
            if held or off_tile:
                out.late.append(f"{where(f)}, {'held' if held else 'off the placed tile'}, "
                                f"scored after the claim step instead of at the placement")
        elif key not in blocked and (held or not off_tile) and f.kind not in unjoined:
            out.missing.append(f)
    return out


def _completion(kind: str) -> Any:
    """A feature scored as completed is complete and worth what the catalogue says; every
    feature of this kind that the turn's tile completed is scored in that turn."""
    def check(t: Transition, p: Profile) -> Verdict:
        events = [e for e in _events(t, "feature-completed") if e["feature"] == kind]
        turn = turn_scoring(t, p)
        if not events and not (turn and any(f.kind == kind for f in turn.completed)):
            return NA
        bd = board(t.after)
        for e in events:
            f = _find(bd, e)
            if f is None:
                continue  # no such feature on the board: CARC-FEATURE-JOIN's finding
            if not f.complete:
                return Violation(f"the {kind} at {e['tiles'][0]} scored as completed is open")
            want = _value(kind, len(e["tiles"]), e["banners"], f.present, p, True)
            if e["points"] != want:
                return Violation(f"a completed {kind} of {len(e['tiles'])} tiles and "
                                 f"{e['banners']} banners is worth {want}, not {e['points']}")
        missing = [f for f in (turn.missing if turn else []) if f.kind == kind]
        return expect(not missing, f"the {kind} at {missing[0].tile_list()[0] if missing else ''}"
                                   f" was completed this turn but never scored")
    return check


def majority(t: Transition, p: Profile) -> Verdict:
    events = _events(t, "feature-completed", "feature-final")
    if not events and not _events(t, "farm-scored"):
        return NA
    gained = [0] * _n(p)
    for e in events:
        counts = e["meeples"]
        top = max(counts)
        # scorers are the players who gain: none for a feature worth 0 (as for farms)
        want = [i + 1 for i, c in enumerate(counts) if c == top and c > 0 and e["points"]]
        if e["scorers"] != want:
            return Violation(f"{e['feature']} with meeples {counts}: scorers {e['scorers']}, "
                             f"the majority rule gives {want}")
        for s in want:
            gained[s - 1] += e["points"]
    for e in _events(t, "farm-scored"):  # who scores a farm is CARC-FARM-MAJORITY's
        for s in e["scorers"]:
            gained[s - 1] += e["points"]
    for e in _events(t, "ransom-paid"):  # a ransom that ends the game: CARC-TOWER-RANSOM's
        gained[e["player"] - 1] -= e["points"]
        gained[e["captor"] - 1] += e["points"]
    delta = [x - y for x, y in zip(t.after["scores"], t.before["scores"], strict=True)]
    return expect(delta == gained, f"scores moved by {delta}, the scored features give {gained}")


def score_timing(t: Transition, p: Profile) -> Verdict:
    """A feature the turn completed is scored at the time the chosen reading says."""
    turn = turn_scoring(t, p)
    if turn is None or not (turn.completed or _events(t, "feature-completed")):
        return NA
    wrong = turn.early + turn.late
    return expect(not wrong, f"scored at the wrong time: {'; '.join(wrong[:2])}")



def incomplete(t: Transition, p: Profile) -> Verdict:
    """Final scoring: every feature holding meeples once, worth the incomplete rate. The value
    follows the event's own tiles and banners; that those are the board's feature is
    CARC-FEATURE-JOIN's check."""
    finals = _events(t, "feature-final")
    if not _events(t, "game-ended"):
        return expect(not finals, "features were scored as incomplete before the end") if \
            finals else NA
    bd = board(t.after)
    for e in finals:
        f = _find(bd, e)
        if f is None:
            continue
        want = _value(e["feature"], len(e["tiles"]), e["banners"], f.present, p, False)
        if e["points"] != want:
            return Violation(f"an incomplete {e['feature']} at {e['tiles'][0]} is worth {want}, "
                             f"not {e['points']}")
    # every feature still holding meeples when the game ended is scored once
    before = board(t.before)
    # a meeple a tower floor captured in this very step no longer holds its feature
    taken = [before.feature_at(_cell(e["at"]), e["on"]) for e in _events(t, "meeple-captured")
             if e["on"] != "tower"]
    held_features = [f.key() for f in before.features()
                     if sum(f.meeples) > sum(1 for g in taken if g is f)]
    held = set(held_features)
    scored_in_game = {_key(e["feature"], e["tiles"]) for e in _events(t, "feature-completed")}
    finals_keys = {_key(e["feature"], e["tiles"]) for e in finals}
    # a key names a kind and its tiles: two held features can share one (two towns on one
    # tile, each claimed), and each is scored
    counts = Counter(_key(e["feature"], e["tiles"]) for e in finals)
    if any(n > max(1, held_features.count(k)) for k, n in counts.items()):
        return Violation("a feature was scored twice at the end")
    if _is(t, "place") or _is(t, "claim"):
        return OK  # the last tile may have grown or joined features; counted above
    missing = held - scored_in_game - finals_keys
    return expect(not missing, f"features with meeples left unscored at the end: "
                               f"{sorted(missing)[:2]}")


def _pre_final(t: Transition) -> list[int]:
    scores = list(t.after["scores"])
    for e in _events(t, "feature-final", "farm-scored"):
        for s in e["scorers"]:
            scores[s - 1] -= e["points"]
    return scores


def points_open(a: JSON, p: Profile) -> Verdict:
    limit = p.param("CARC-END-POINTS", "points")
    if a["result"] is not None:
        return NA
    return expect(max(a["scores"]) < limit,
                  f"a score of {max(a['scores'])} reached {limit} but the game goes on")


def end_points(t: Transition, p: Profile) -> Verdict:
    limit = p.param("CARC-END-POINTS", "points")
    a = t.after
    if not _events(t, "game-ended"):
        return NA
    reached = max(_pre_final(t)) >= limit
    reason = a["result"]["reason"]
    return expect(reached == (reason == "points-limit"),
                  f"the game ended for {reason!r} with scores {_pre_final(t)} before the final "
                  f"scoring")


def tiles_left(a: JSON, p: Profile) -> Verdict:
    empty = not a["deck"] and not any(a["hands"])
    if a["result"] is None:
        if a["phase"] != "land" or a["step"] == "claim":  # the last tile's claim step
            return NA
        return expect(not empty, "the deck and every hand are empty but the game goes on")
    if a["result"]["reason"] == "tiles-exhausted":
        return expect(empty, "the game ended for tiles-exhausted with tiles left")
    return NA


def end_tiles(t: Transition, p: Profile) -> Verdict:
    a = t.after
    skipped = _events(t, "turn-skipped")
    if not skipped:
        return NA
    for e in skipped:
        if a["deck"] or a["hands"][e["player"] - 1]:
            return Violation(f"player {e['player']} was skipped while holding or able to draw "
                             f"a tile")
    return OK


def winner(s: JSON, p: Profile) -> Verdict:
    r = s["result"]
    if r is None:
        return NA
    top = max(r["scores"])
    tied = [i + 1 for i, s in enumerate(r["scores"]) if s == top]
    want = tied if len(tied) == 1 or p.variant("CARC-WINNER") == "shared" else []
    return expect(r["winners"] == want, f"winners {r['winners']}, the scores "
                                        f"{r['scores']} give {want}")


# --- the protocol ----------------------------------------------------------------------------
_LAX_INT = re.compile(r"\s*[+-]?[0-9]+(?:_[0-9]+)*(?:\.0*)?\s*")


def _frame(text: str, p: Profile) -> JSON:
    """The JSON of one message as CARC-PROTO-FRAME reads it: a count of at most count_chars - 1
    characters read as int() reads them, a comma, exactly that many characters."""
    head = p.param("CARC-PROTO-FRAME", "count_chars")
    comma = text.find(",", 0, head)
    if comma < 0:
        return None
    try:
        count = int(text[:comma])
    except ValueError:
        return None
    if count > p.param("CARC-PROTO-FRAME", "max_chars") or len(text) - comma - 1 != max(count,
                                                                                        0):
        return None
    try:
        return json.loads(text[comma + 1:], parse_constant=_no_constant)
    except ValueError:
        return None


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _lax(value: Any) -> Any:
    """An integer member as CARC-PROTO-REPLY reads it (lax: 1, 1.0, "1", true); else as is."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _LAX_INT.fullmatch(value):
        return int(float(value.strip().replace("_", ""))) if "." in value else int(value)
    return value


INVALID = {"type": "invalid"}  # the referee's verdict on a reply that bans its bot
_2025_MOVES = ("move_place_tile", "move_place_meeple", "move_place_meeple_pass")


def proto_frame(state: JSON, text: str, action: JSON, p: Profile) -> Verdict:
    """A message that is not one well-counted frame around a JSON object is invalid."""
    if isinstance(_frame(text, p), dict):
        return OK  # well framed (what it asks for is CARC-PROTO-REPLY's)
    return expect(action == INVALID, f"the engine accepted the malformed message "
                                     f"{text[:60]!r} as {action}")


def proto_reply(state: JSON, text: str, action: JSON, p: Profile) -> Verdict:
    """An accepted reply becomes exactly the move it asks for, from the player to move.
    (Which well-framed replies are invalid is checked against the reference's referee.)"""
    data = _frame(text, p)
    if not isinstance(data, dict) or action == INVALID:
        return NA
    if not isinstance(action, dict):
        return Violation(f"the referee's answer {action!r} is not an action")
    centre = p.param("CARC-PROTO-REPLY", "centre")
    kind = data.get("event_type")
    player_id = data.get("player_id")
    if kind not in _2025_MOVES and isinstance(player_id, bool):
        player_id = None  # the extension's members are read strictly
    if (_lax(player_id) if kind in _2025_MOVES else player_id) != (state["to_move"] or 0) - 1:
        return Violation(f"accepted a reply with player_id {data.get('player_id')!r} for player "
                         f"{state['to_move']}")
    raw = data.get("tile")
    tile: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if kind == "move_place_tile":
        pos = [_lax(v) for v in tile.get("pos") or [0, 0]]
        want = {"type": "place", "tile": tile.get("tile_type"),
                "at": [pos[0] - centre, pos[1] - centre], "rotation": _lax(tile.get("rotation"))}
        return expect(action == want, f"the reply asked for {want}, the referee made {action}")
    if kind == "move_discard_tile":
        return expect(action == {"type": "discard", "tile": tile.get("tile_type")},
                      f"the discard reply became {action}")
    if kind == "move_place_meeple_pass":
        return expect(action == {"type": "pass"}, f"the pass reply became {action}")
    if kind == "move_place_meeple":
        names = {**PLACED_ON, **(FIELD_PLACED_ON if farms(p) else {})}
        spot = names.get(str(data.get("placed_on")))
        if spot is None or action.get("type") != "claim":
            return Violation(f"the claim reply became {action}")
        bd = board(state, p)
        cell = _cell(state["placed"])
        if spot in FIELD_SPOTS:
            same = bd.field_at(cell, spot) is bd.field_at(cell, action["on"])
            there = bd.field_at(cell, spot)
        else:
            same = bd.feature_at(cell, spot) is bd.feature_at(cell, action["on"])
            there = bd.feature_at(cell, spot)
        return expect(same and there is not None,
                      f"placed_on {data.get('placed_on')} became a claim on {action['on']}")
    tower = p.param("CARC-TOWER-TILES", "enabled")
    if tower and kind == "move_pay_ransom":
        captor = data.get("captor_id")
        return expect(action == {"type": "ransom", "captor": (captor if isinstance(captor, int)
                                                              else -9) + 1},
                      f"the ransom reply became {action}")
    if tower and kind == "move_exchange_prisoners":
        other = data.get("other_id")
        return expect(action == {"type": "exchange", "with": (other if isinstance(other, int)
                                                              else -9) + 1},
                      f"the exchange reply became {action}")
    if tower and kind in ("move_tower_floor", "move_tower_cap"):
        raw_at = data.get("tower_pos") or [0, 0]
        at = [raw_at[0] - centre, raw_at[1] - centre]
        if kind == "move_tower_cap":
            return expect(action == {"type": "cap", "at": at}, f"the cap reply became {action}")
        floor: dict[str, Any] = {"type": "tower", "at": at}
        capture = data.get("capture")
        if isinstance(capture, dict):
            where = {**PLACED_ON, **FIELD_PLACED_ON, "TOWER": "tower"}.get(
                str(capture.get("placed_on")))
            cpos = capture.get("pos") or [0, 0]
            victim: dict[str, Any] = {"at": [cpos[0] - centre, cpos[1] - centre], "on": where}
            floor["capture"] = victim
            got = action.get("capture")
            # the engine names a meeple's feature by its canonical spot: compare the feature
            if isinstance(got, dict) and got.get("at") == victim["at"] and \
                    where not in (None, "tower") and got.get("on") != where:
                bd, c = board(state), _cell(got["at"])
                look = bd.field_at if where in FIELD_SPOTS else bd.feature_at
                if look(c, str(where)) is not None and look(c, str(where)) is look(c, got["on"]):
                    victim["on"] = got["on"]
        return expect(action == floor, f"the floor reply asked for {floor}, the referee made "
                                       f"{action}")
    return Violation(f"the referee accepted event_type {kind!r}")


ORACLES: list[Oracle] = [
    Oracle("CARC-TILES", state=tiles_conserved),
    Oracle("CARC-PLAYERS", state=players_sized),
    Oracle("CARC-TURN-ORDER", state=bare.first_river_turn, check=turn_order,
           reads_events=True, bare=bare.turn_order),
    Oracle("CARC-BOARD-COORDS", check=coords, on=PLACE, reads_events=True, bare=bare.coords),
    Oracle("CARC-RIVER-SPRING", state=spring),
    # asked at every step of the river phase: a tile laid outside a placement is seen at
    # whatever step it is laid
    Oracle("CARC-RIVER-DRAW", check=river_draw, judge=river_draw_judge,
           weights=by_copies("draw", "tile", lambda s: s["river_pile"] if s["phase"] == "river"
                             else None, "river tiles")),
    Oracle("CARC-RIVER-CONTIGUOUS", check=river_contiguous,
           judge=_place_judge(_river_cell_problem), on=PLACE),
    Oracle("CARC-RIVER-MEETS-RIVER", check=river_meets_river,
           judge=_place_judge(lambda s, a, p: _edge_problem(s, a, river=True)), on=PLACE),
    Oracle("CARC-RIVER-NO-UTURN", check=river_no_uturn, judge=_place_judge(_uturn_problem),
           on=PLACE),
    Oracle("CARC-RIVER-LAKE-ENDS", check=lake_ends, judge=lake_judge, reads_events=True,
           bare=bare.lake_ends),
    Oracle("CARC-DECK-DRAW", check=deck_draw,
           weights=by_copies("draw", "tile", lambda s: s["deck"] if s["phase"] != "river"
                             else None, "land tiles"), on=DRAW),
    Oracle("CARC-HAND-DEAL", check=opening_deal, reads_events=True, bare=bare.hand_deal),
    Oracle("CARC-HAND-SIZE", state=hand_bound, check=hand_size, reads_events=True,
           bare=bare.hand_size),
    Oracle("CARC-HAND-NOFIT", check=nofit, judge=nofit_judge, on=frozenset({"discard"})),
    Oracle("CARC-PLACE-ADJACENT", check=adjacent,
           judge=_place_judge(lambda s, a, p: _adjacent_problem(s, a)), on=PLACE),
    Oracle("CARC-PLACE-MATCH", check=match,
           judge=_place_judge(lambda s, a, p: _match_problem(s, a)), on=PLACE),
    # how features join shows in canonical JSON only through what they score: no state-only
    # form (the departure library's join models explain such steps)
    Oracle("CARC-FEATURE-JOIN", check=feature_join, reads_events=True),
    Oracle("CARC-CLAIM-ONE", check=claim_one, reads_events=True, bare=bare.claim_one),
    Oracle("CARC-CLAIM-PLACED-TILE", check=claim_placed_tile,
           judge=_claim_judge(_placed_tile_problem), on=CLAIM, reads_events=True,
           bare=bare.claim_placed_tile),
    Oracle("CARC-CLAIM-UNCLAIMED", check=claim_unclaimed,
           judge=_claim_judge(_unclaimed_problem), on=CLAIM),
    Oracle("CARC-MEEPLE-SUPPLY", state=supply_state, check=supply, judge=supply_judge,
           on=CLAIM),
    Oracle("CARC-MEEPLE-RETURN", check=meeple_return, reads_events=True,
           bare=bare.meeple_return),
    *(Oracle(rule, check=_completion(kind), reads_events=True,
             bare=bare_scoring.COMPLETION_FORMS[rule]) for rule, kind in COMPLETE_KIND.items()),
    Oracle("CARC-SCORE-MAJORITY", check=majority, reads_events=True, bare=bare_scoring.majority),
    # a turn's scoring is judged at its placement and at the end of its claim step
    Oracle("CARC-SCORE-TIMING", check=score_timing, on=frozenset({"place", "claim", "pass"}),
           reads_events=True, bare=bare.score_timing),
    Oracle("CARC-SCORE-INCOMPLETE", check=incomplete, reads_events=True,
           bare=bare_scoring.incomplete),
    Oracle("CARC-END-POINTS", state=points_open, check=end_points, reads_events=True,
           bare=bare.end_points),
    Oracle("CARC-END-TILES", state=tiles_left, check=end_tiles, reads_events=True,
           bare=bare.end_tiles),
    Oracle("CARC-WINNER", state=winner),
    Oracle("CARC-PROTO-FRAME", referee=proto_frame),
    Oracle("CARC-PROTO-REPLY", referee=proto_reply),
]

HARNESS_RULES = ("CARC-PROTO-LIMITS",)
"""Rules no oracle can see in canonical JSON (time limits, bans): the harness enforces them."""
