"""State-only forms (`Oracle.bare`) of the Carcassonne checks that read a step's events.

An engine that sends no events of ours (`no_events`) shows, on a step whose state differs
from the reference's, only its state before, the action and its state after. Each form here
judges its rule from those alone, and objects only where its own kind of departure explains
what the state shows (named with `cause`, so two departures under one rule are two
findings): a completed town paid without its banner bonus is CARC-TOWN-COMPLETE's, an
incomplete town scored at the wrong banner value CARC-SCORE-INCOMPLETE's, a tie scored by
one player CARC-SCORE-MAJORITY's. Where a form cannot tell, it answers NA: the departure
is then another rule's (no catch-all).

Written from the rule texts and the oracles' board analysis; never from the reference
engine. This module must not be asked about steps whose events are known (the event-reading
checks in `checks`, `farms` and `tower` judge those).
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, cause
from gamecert.oracles.carcassonne.board import FIELD_SPOTS, Board, catalogue
from gamecert.oracles.carcassonne.scoring import (
    StepScoring,
    farmers,
    step_scoring,
)
from gamecert.spec import Profile

JSON = Any
KIND_OF = {"CARC-ROAD-COMPLETE": "road", "CARC-TOWN-COMPLETE": "city",
           "CARC-MONASTERY-COMPLETE": "monastery"}


def _n(p: Profile) -> int:
    return int(p.param("CARC-PLAYERS", "players"))


def _is(t: Transition, kind: str) -> bool:
    return isinstance(t.action, dict) and t.action.get("type") == kind


def _scoring(t: Transition, p: Profile) -> StepScoring | None:
    return step_scoring(t.before, t.action, t.after, p)


def _where(f: Any) -> str:
    return f"the {f.kind} at {f.tile_list()[0]}"


# --- turns and the river ---------------------------------------------------------------------
def turn_order(t: Transition, p: Profile) -> Verdict:
    """CARC-TURN-ORDER: the next player is the one after the mover (player 1 first in the land
    phase under `restart`); a player passed over in the land phase when the deck is empty is
    CARC-END-TILES's to judge."""
    b, a = t.before, t.after
    if a["to_move"] is None or b["to_move"] is None or a["to_move"] == b["to_move"]:
        return NA
    n = _n(p)
    river_ended = b["phase"] == "river" and a["phase"] == "land"
    want = 1 if river_ended and p.variant("CARC-TURN-ORDER") == "restart" else b["to_move"] % n + 1
    if a["to_move"] == want:
        return OK
    if a["phase"] == "land" and not a["deck"] and not river_ended:
        return NA  # players passed over at the end: CARC-END-TILES's
    return cause("wrong-next-player", f"player {a['to_move']} moves after player "
                                      f"{b['to_move']}; the turn order gives {want}")


def first_river_turn(s: JSON, p: Profile) -> Verdict:
    """CARC-TURN-ORDER at the start: the first river turn (the spring alone on the board) is
    player 1's."""
    if s["phase"] != "river" or len(s["board"]) != 1 or s["to_move"] is None:
        return NA
    return OK if s["to_move"] == 1 else cause(
        "first-player", f"player {s['to_move']} takes the first river turn; the turn order "
                        f"starts with player 1")


def end_tiles(t: Transition, p: Profile) -> Verdict:
    """CARC-END-TILES: once the deck is empty, only players with an empty hand are skipped."""
    b, a = t.before, t.after
    if (a["to_move"] is None or b["to_move"] is None or a["phase"] != "land"
            or b["phase"] != "land" or a["deck"] or a["to_move"] == b["to_move"]):
        return NA
    n = _n(p)
    skipped: list[int] = []
    q = b["to_move"] % n + 1
    while q != a["to_move"] and len(skipped) < n:
        skipped.append(q)
        q = q % n + 1
    holding = [q for q in skipped if a["hands"][q - 1]]
    return cause("skipped-with-tiles", f"players {holding} were skipped holding tiles") \
        if holding else OK


def coords(t: Transition, p: Profile) -> Verdict:
    """CARC-BOARD-COORDS: the placed tile is on the board where and as the action says."""
    if not _is(t, "place"):
        return NA
    act = t.action
    entry = {"at": act["at"], "tile": act["tile"], "rotation": act["rotation"]}
    if entry not in t.after["board"]:
        return cause("placed-elsewhere", f"the board lacks the placed {entry}")
    cells = [tuple(e["at"]) for e in t.after["board"]]
    return OK if len(set(cells)) == len(cells) else cause("cell-shared",
                                                          "two tiles share a cell")


def river_draw(t: Transition, p: Profile) -> Verdict:
    """CARC-RIVER-DRAW: a river turn lays one river tile, the one the player drew; no river
    tile goes on the board outside a placement (the lake laid inside a turn, by the engine)."""
    b, a = t.before, t.after
    if b["phase"] != "river":
        return NA
    added = [e for e in a["board"] if e not in b["board"]]
    placed = [e for e in added if _is(t, "place") and e["at"] == t.action["at"]]
    extra = [e for e in added if e not in placed]
    if extra:
        laid = ", ".join(f"{e['tile']} at {e['at']}" for e in extra)
        return cause("tile-laid-without-turn",
                     f"after {t.action.get('type')}, {laid} went on the board in the same "
                     f"step: a river turn draws one tile and places it")
    return OK if _is(t, "place") else NA


def lake_ends(t: Transition, p: Profile) -> Verdict:
    """CARC-RIVER-LAKE-ENDS: the lake drawn last (lake-last); the lake ends the river phase;
    the phase ends only with the river closed or no river tile left, the rest set aside."""
    b, a = t.before, t.after
    if b["phase"] == "river" and _is(t, "draw") and t.action["tile"] == "RE":
        others = sum(k for tile, k in b["river_pile"].items() if tile != "RE")
        if p.variant("CARC-RIVER-LAKE-ENDS") == "lake-last" and others:
            return cause("lake-early", f"the lake was drawn with {others} other river tiles "
                                       f"left (lake-last)")
        return OK
    if b["phase"] != "river":
        return NA
    closed = Board(a).course().open_cell is None
    if a["phase"] == "river":
        return cause("river-goes-on", "the lake is placed but the river phase goes on") \
            if closed and a["step"] != "claim" else NA
    river_held = any(catalogue()[k].set == "river" for h in a["hands"] for k in h)
    if not closed and (b["river_pile"] or river_held):
        return cause("ended-open", "the river phase ended with the river open and river "
                                   "tiles left")
    if a["river_pile"]:
        return cause("pile-kept", f"the river phase ended with river tiles "
                                  f"{a['river_pile']} still in the pile")
    return OK


def hand_deal(t: Transition, p: Profile) -> Verdict:
    """CARC-HAND-DEAL: when the river phase ends, the deal in player order is due (then the
    first land turn's draws). Read from the draws still pending after the step."""
    b, a = t.before, t.after
    if b["phase"] != "river" or a["phase"] != "land" or a["to_move"] is None:
        return NA
    deal = int(p.param("CARC-HAND-DEAL", "opening_deal"))
    cap = int(p.param("CARC-HAND-SIZE", "hand_max"))
    per_turn = int(p.param("CARC-HAND-SIZE", "draw_per_turn"))
    left = sum(a["deck"].values())
    sizes = [len(h) for h in a["hands"]]
    want: list[int] = []
    for player in range(1, _n(p) + 1):
        k = max(0, min(deal, cap - sizes[player - 1], left))
        want += [player] * k
        sizes[player - 1] += k
        left -= k
    first = a["to_move"]
    want += [first] * max(0, min(per_turn, cap - sizes[first - 1], left))
    return OK if a["pending"] == want else cause(
        "wrong-deal", f"opening deal and first draws pending {a['pending']}, expected {want}")


def hand_size(t: Transition, p: Profile) -> Verdict:
    """CARC-HAND-SIZE: at the start of each land turn the player draws what the rule allows."""
    b, a = t.before, t.after
    if (a["phase"] != "land" or b["phase"] != "land" or a["to_move"] is None
            or a["to_move"] == b["to_move"] or a["step"] not in ("draw", "place")):
        return NA
    player = a["to_move"]
    hand = len(a["hands"][player - 1])
    cap = int(p.param("CARC-HAND-SIZE", "hand_max"))
    n = max(0, min(int(p.param("CARC-HAND-SIZE", "draw_per_turn")), cap - hand,
                   sum(a["deck"].values())))
    ok = n == 0 and hand > 0 if a["step"] == "place" else a["pending"] == [player] * n
    return OK if ok else cause("wrong-draws", f"player {player} starts the turn with {hand} "
                                              f"tiles, pending {a['pending']}; the rule "
                                              f"draws {n}")


# --- claims ----------------------------------------------------------------------------------
def _new_meeples(t: Transition) -> list[JSON]:
    return [m for m in t.after["meeples"] if m not in t.before["meeples"]]


def claim_one(t: Transition, p: Profile) -> Verdict:
    """CARC-CLAIM-ONE: a claim puts down at most one meeple and ends the claim step; a pass
    and any other step put down none."""
    new = [m for m in _new_meeples(t) if not _is(t, "tower")]
    if _is(t, "claim"):
        if len(new) > 1:
            return cause("several-meeples", f"a claim put down {len(new)} meeples")
        if t.after["step"] == "claim" and t.after["placed"] == t.before["placed"]:
            return cause("claim-step-goes-on", "after a claim the claim step goes on")
        return OK
    if _is(t, "pass"):
        return cause("meeple-on-pass", f"a pass put down {new}") if new else OK
    return cause("meeple-without-claim", f"a {t.action.get('type')} put down {new}") \
        if new else NA


def claim_placed_tile(t: Transition, p: Profile) -> Verdict:
    """CARC-CLAIM-PLACED-TILE: the meeple a claim puts down is on a feature of the tile just
    placed. (A claim scored at once leaves no meeple to see: not applicable.)"""
    if not _is(t, "claim"):
        return NA
    new = [m for m in _new_meeples(t) if m["player"] == t.before["to_move"]]
    if not new:
        return NA
    placed = t.before["placed"]
    for m in new:
        if m["at"] != placed:
            return cause("off-placed-tile", f"the meeple went to {m['at']}, not on the tile "
                                            f"just placed {placed}")
        bd = Board(t.after, profile=p)
        cell = (m["at"][0], m["at"][1])
        there = bd.field_at(cell, m["on"]) if m["on"] in FIELD_SPOTS else \
            bd.feature_at(cell, m["on"])
        if there is None:
            return cause("no-feature-there", f"a meeple was put on {m['on']!r} of the placed "
                                              f"tile, which has no feature there")
    return OK


def meeple_return(t: Transition, p: Profile) -> Verdict:
    """CARC-MEEPLE-RETURN: a feature scored in this step keeps no meeple; after the final
    scoring no meeple is on the board. A completed feature that was not scored is the
    completion rules' to judge."""
    a = t.after
    if a.get("result") is not None:
        return cause("meeples-left-at-end", f"{len(a['meeples'])} meeples stay on the board "
                                            f"after the final scoring") if a["meeples"] else OK
    scoring = _scoring(t, p)
    if scoring is None:
        return NA
    done = [s for s in scoring.items if s.how == "complete" and s.scorers]
    if not done:
        return NA
    bd = Board(a)
    for s in done:
        paid = all(scoring.delta[q - 1] >= s.value for q in s.scorers)
        kept = [f for f in bd.features() if f.key() == s.feature.key() and any(f.meeples)]
        if kept and paid:
            return cause("meeples-kept", f"meeples {kept[0].meeples} stay on "
                                         f"{_where(s.feature)}, scored this step")
    return OK


# --- scoring ---------------------------------------------------------------------------------
def score_timing(t: Transition, p: Profile) -> Verdict:
    """CARC-SCORE-TIMING (at-placement): at the placement only the completed features holding
    meeples (and those off the tile) are scored; one held by nobody waits for the claim step,
    so it stays claimable (its spot is not blocked)."""
    if p.variant("CARC-SCORE-TIMING") != "at-placement" or not _is(t, "place") \
            or t.after.get("result") is not None or t.after["step"] != "claim":
        return NA
    scoring = _scoring(t, p)
    if scoring is None or scoring.cell is None:
        return NA
    bd = Board(t.after)
    cell = scoring.cell
    blocked = [bd.feature_at(cell, s) for s in t.after.get("claim_blocked") or []]
    early = [f for f in blocked if f is not None and f.complete
             and all(f.key() != g.feature.key() for g in scoring.items)]
    if early:
        return cause("scored-before-claim", f"{_where(early[0])}, held by nobody, was scored at "
                                            f"the placement before its claim step")
    return OK


def end_points(t: Transition, p: Profile) -> Verdict:
    """CARC-END-POINTS: the game ends for the points limit exactly when a score reached it
    before the final scoring."""
    a = t.after
    if a.get("result") is None:
        return NA
    scoring = _scoring(t, p)
    if scoring is None:
        return NA
    limit = int(p.param("CARC-END-POINTS", "points"))
    pre = [b + sum(s.value for s in scoring.items if s.how == "complete" and q + 1 in s.scorers)
           for q, b in enumerate(t.before["scores"])]
    if _is(t, "ransom"):
        pre = [x + e for x, e in zip(pre, scoring.expected, strict=True)]
    reached = max(pre) >= limit
    by_points = a["result"].get("reason") == "points-limit"
    if reached == by_points:
        return OK
    return cause("ended-below-limit" if by_points else "not-ended-at-limit",
                 f"the game ended for {a['result'].get('reason')!r} with scores {pre} before "
                 f"the final scoring (limit {limit})")


# --- farms -----------------------------------------------------------------------------------
def farmers_stay(t: Transition, p: Profile) -> Verdict:
    """CARC-FARM-STAYS: until the game ends no farmer leaves the board, but by a capture."""
    if not p.param("CARC-FARM-FIELDS", "enabled") or t.after.get("result") is not None:
        return NA
    before = farmers(t.before)
    if not before:
        return NA
    capture = t.action.get("capture") if _is(t, "tower") else None
    after = farmers(t.after)
    gone = [m for m in before if m not in after and not (
        isinstance(capture, dict) and capture.get("at") == m["at"]
        and capture.get("on") == m["on"])]
    return cause("farmers-returned", f"farmers left the board during the game: {gone[:2]}") \
        if gone else OK


# --- The Tower -------------------------------------------------------------------------------
def _towers(state: JSON) -> dict[tuple[int, int], tuple[int, Any]]:
    return {(w["at"][0], w["at"][1]): (w["height"], w["cap"]) for w in state.get("towers", [])}


def tower_reach(t: Transition, p: Profile) -> Verdict:
    """CARC-TOWER-REACH: a capture takes a meeple within the new height, in a straight line."""
    if not _is(t, "tower") or not isinstance(t.action.get("capture"), dict):
        return NA
    at = (t.action["at"][0], t.action["at"][1])
    height = _towers(t.before).get(at, (0, None))[0] + 1
    x, y = t.action["capture"]["at"]
    dx, dy = x - at[0], y - at[1]
    inside = (dx == 0 or dy == 0) and abs(dx) + abs(dy) <= height
    return OK if inside else cause("out-of-reach", f"a tower {height} high at {list(at)} "
                                                   f"captured at {[x, y]}, out of its reach")


def tower_capture(t: Transition, p: Profile) -> Verdict:
    """CARC-TOWER-CAPTURE: a floor without a capture takes no meeple; the captured meeple
    leaves the board (or its tower), an opponent's into the captor's prison."""
    if not _is(t, "tower"):
        return NA
    b, a = t.before, t.after
    capture = t.action.get("capture")
    if not isinstance(capture, dict):
        gone = [m for m in b["meeples"] if m not in a["meeples"]]
        return cause("taken-without-capture", f"a floor without a capture took {gone[:2]}") \
            if gone else OK
    at, on = capture["at"], capture["on"]
    if on == "tower":
        owner = _towers(b).get((at[0], at[1]), (0, None))[1]
        if owner is None:
            return NA
        if _towers(a).get((at[0], at[1]), (0, None))[1] is not None:
            return cause("victim-stays", f"the meeple capping the tower at {at} was captured "
                                         f"but the tower is still capped")
    else:
        there = [m for m in b["meeples"] if m["at"] == at and m["on"] == on]
        if not there:
            return NA
        owner = there[0]["player"]
        if any(m["at"] == at and m["on"] == on for m in a["meeples"]):
            return cause("victim-stays", f"the captured meeple at {at} ({on}) is still on the "
                                         f"board")
    captor = b["to_move"]
    want = [list(r) for r in b["prisoners"]]
    if owner != captor:
        want[captor - 1][owner - 1] += 1
    swapped = [list(r) for r in want]
    if owner != captor and want[owner - 1][captor - 1] and \
            p.variant("CARC-TOWER-EXCHANGE") == "immediate":
        swapped[captor - 1][owner - 1] -= 1
        swapped[owner - 1][captor - 1] -= 1
    got = [list(r) for r in a["prisoners"]]
    if got in (want, swapped):
        return OK
    home = owner != captor and a["supply"][owner - 1] > b["supply"][owner - 1]
    return cause("sent-home" if home else "wrong-prison",
                 f"after capturing player {owner}'s meeple, the prisoners are {got}, not {want}")


def tower_exchange(t: Transition, p: Profile) -> Verdict:
    """CARC-TOWER-EXCHANGE: under `immediate` nobody asks for an exchange; under `on-request`
    an exchange asked for swaps one pair of mutual prisoners."""
    if not _is(t, "exchange"):
        return NA
    if p.variant("CARC-TOWER-EXCHANGE") == "immediate":
        return cause("asked-for", "an exchange was asked for; exchanges are immediate")
    a, b = t.before["to_move"], t.action["with"]
    rows = [list(r) for r in t.before["prisoners"]]
    if not (rows[a - 1][b - 1] and rows[b - 1][a - 1]):
        return cause("not-mutual", f"players {a} and {b} exchanged prisoners they do not hold")
    rows[a - 1][b - 1] -= 1
    rows[b - 1][a - 1] -= 1
    return OK if [list(r) for r in t.after["prisoners"]] == rows else cause(
        "wrong-swap", f"an exchange left the prisoners {t.after['prisoners']}, not {rows}")


def tower_ransom(t: Transition, p: Profile, problem: Any) -> Verdict:
    """CARC-TOWER-RANSOM: no score below zero; a ransom moves exactly its points from payer to
    captor and frees one meeple (`problem`: the rule's own test of when one may be paid)."""
    if any(x < 0 for x in t.after["scores"]):
        return cause("below-zero", f"a score below zero: {t.after['scores']}")
    if not _is(t, "ransom"):
        return NA
    captor = t.action["captor"]
    why = problem(t.before, captor, p)
    if why:
        return cause("not-allowed", why)
    if t.after.get("result") is not None:
        return NA  # the final scoring follows: its rules judge the scores
    payer = t.before["to_move"]
    cost = int(p.param("CARC-TOWER-RANSOM", "points"))
    want = list(t.before["scores"])
    want[payer - 1] -= cost
    want[captor - 1] += cost
    if t.after["scores"] != want:
        return cause("wrong-amount", f"a ransom from {payer} to {captor}: scores "
                                     f"{t.before['scores']} became {t.after['scores']}, not "
                                     f"{want}")
    rows = [list(r) for r in t.before["prisoners"]]
    rows[captor - 1][payer - 1] -= 1
    if [list(r) for r in t.after["prisoners"]] != rows:
        return cause("wrong-release", f"a ransom must free exactly one meeple: prisoners "
                                      f"{t.before['prisoners']} became {t.after['prisoners']}")
    return OK if t.after["ransom_paid"] else cause("not-recorded",
                                                   "the ransom was not recorded for the turn")


