"""Oracles for the farms stage (CARC-FARM-*), on canonical JSON and the oracles' own flood
fill of fields (`board.Board.fields`), never the reference engine.

Every check is not applicable outside the farms stage (CARC-FARM-FIELDS.enabled false).
"""

from __future__ import annotations

from typing import Any

from gamecert.oracles.base import NA, OK, Oracle, Transition, Verdict, Violation, expect
from gamecert.oracles.carcassonne import bare, bare_scoring
from gamecert.oracles.carcassonne.board import FIELD_SPOTS, Board, Feature
from gamecert.oracles.carcassonne.checks.common import (
    _action_of,
    _cell,
    _events,
    _is,
    board,
    farms,
)
from gamecert.spec import Profile

JSON = Any


def _farmers(state: JSON) -> list[JSON]:
    return [m for m in state["meeples"] if m["on"] in FIELD_SPOTS]


def _at_the_end(t: Transition, p: Profile) -> Board:
    """The final board with the farmers that stood on it before the final scoring took them
    home: those of the state before, less one a tower captured in this very transition,
    plus one placed in it."""
    farmers = _farmers(t.before)
    gone = t.action.get("capture") if t.action.get("type") == "tower" else None
    if isinstance(gone, dict):  # a farmer captured by the final move is in prison, not scored
        farmers = [m for m in farmers if not (m["at"] == gone.get("at")
                                              and m["on"] == gone.get("on"))]
    farmers += [{"at": e["at"], "on": e["on"], "player": e["player"]}
                for e in _events(t, "meeple-placed") if e["on"] in FIELD_SPOTS]
    return Board({**t.after, "meeples": farmers}, profile=p)


def _scored(t: Transition, p: Profile) -> tuple[Board, list[JSON]] | None:
    if not farms(p) or not _events(t, "game-ended"):
        return None
    return _at_the_end(t, p), _events(t, "farm-scored")


def _field_of(bd: Board, e: JSON) -> Feature | None:
    """The board field a farm-scored event names: same tiles, preferring one with the event's
    farmers (one tile can hold two fields, e.g. both sides of a town crossing it)."""
    want = sorted(e["tiles"])
    found = [f for f in bd.fields() if f.tile_list() == want]
    # two fields on the same tiles may even hold the same farmers (a town between them on
    # both tiles): then the one bordering the towns the event lists
    towns = sorted(e.get("towns", []))
    found.sort(key=lambda f: (f.meeples != list(e["meeples"]),
                              sorted(g.tile_list() for g in f.towns if g.complete) != towns))
    return found[0] if found else None


# --- CARC-FARM-FIELDS ------------------------------------------------------------------------
def fields_scored(t: Transition, p: Profile) -> Verdict:
    """A field scored at the end is one field of the board as fields join (cut by roads, towns
    and the board's edge), with the farmers that stand on it."""
    scored = _scored(t, p)
    if scored is None:
        return NA
    bd, events = scored
    for e in events:
        f = _field_of(bd, e)
        if f is None:
            return Violation(f"no field of the board covers exactly {e['tiles']}: fields are "
                             f"joined differently (roads, towns and the board's edge cut them)")
        if list(e["meeples"]) != f.meeples:
            return Violation(f"the field at {e['tiles'][0]} holds farmers {f.meeples}, the "
                             f"event says {e['meeples']}")
    return OK


def fields_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    """A farmer refused on a field that, as fields join, holds no farmer (with a meeple in the
    supply, in the claim step): the engine's fields are joined across a road or a town."""
    if (accepted or not farms(p) or not _action_of(action, "claim")
            or action["on"] not in FIELD_SPOTS or state["step"] != "claim"
            or state["placed"] is None or state["to_move"] is None
            or state["supply"][state["to_move"] - 1] <= 0):
        return NA
    f = board(state, p).field_at(_cell(state["placed"]), action["on"])
    if f is None:
        return NA  # no field on that half-edge: refusing is right
    return expect(any(f.meeples), f"refused a farmer on {action['on']} of the placed tile, "
                                  f"whose field (as joined: {f.tile_list()[:3]}...) holds none")


# --- CARC-FARM-CLAIM -------------------------------------------------------------------------
def _claim_problem(state: JSON, action: JSON, p: Profile) -> Verdict | None:
    if state["step"] != "claim" or state["placed"] is None:
        return None
    f = board(state, p).field_at(_cell(state["placed"]), action["on"])
    if f is not None and any(f.meeples):
        return Violation(f"a farmer went on a field already holding farmers {f.meeples}")
    return None


def farm_claim(t: Transition, p: Profile) -> Verdict:
    """A farmer goes only on a field of the placed tile that, as joined, holds no farmer."""
    if not _is(t, "claim") or t.action.get("on") not in FIELD_SPOTS:
        return NA
    if not farms(p):
        return Violation("a farmer was placed outside the farms stage")
    return _claim_problem(t.before, t.action, p) or OK


def farm_claim_judge(state: JSON, action: JSON, accepted: bool, p: Profile) -> Verdict:
    if not accepted or not _action_of(action, "claim") or action["on"] not in FIELD_SPOTS:
        return NA
    if not farms(p):
        return Violation("the engine accepted a farmer outside the farms stage")
    return _claim_problem(state, action, p) or OK


# --- CARC-FARM-STAYS -------------------------------------------------------------------------
def farmers_stay(t: Transition, p: Profile) -> Verdict:
    """Until the game ends, every farmer stays where it is (unless a tower captures it)."""
    if not farms(p) or _events(t, "game-ended"):
        return NA
    before = _farmers(t.before)
    if not before:
        return NA
    after = {(tuple(m["at"]), m["on"], m["player"]) for m in _farmers(t.after)}
    # a tower's capture takes a farmer like any meeple (CARC-TOWER-CAPTURE)
    captured = {(tuple(e["at"]), e["on"]) for e in _events(t, "meeple-captured")}
    gone = [m for m in before if (tuple(m["at"]), m["on"], m["player"]) not in after
            and (tuple(m["at"]), m["on"]) not in captured]
    return expect(not gone, f"farmers left the board during the game: {gone[:2]}")


# --- CARC-FARM-SCORE -------------------------------------------------------------------------
def farm_score(t: Transition, p: Profile) -> Verdict:
    """At the end, each field holding farmers is scored once, worth points_per_town per
    completed town it borders; no farm is scored during the game."""
    if not farms(p):
        return NA
    events = _events(t, "farm-scored")
    if not _events(t, "game-ended"):
        return expect(not events, "a farm was scored before the end") if events else NA
    bd = _at_the_end(t, p)
    rate = int(p.param("CARC-FARM-SCORE", "points_per_town"))
    held = [f for f in bd.fields() if any(f.meeples)]
    if any(_field_of(bd, e) is None for e in events):
        return NA  # the engine's fields are not the board's: CARC-FARM-FIELDS's finding
    if len(events) != len(held):
        return Violation(f"{len(held)} fields hold farmers at the end, {len(events)} farms were "
                         f"scored")
    for e in events:
        f = _field_of(bd, e)
        if f is None:
            continue  # not a field of the board: CARC-FARM-FIELDS's finding
        towns = sorted(g.tile_list() for g in f.towns if g.complete)
        want = rate * len(towns)
        if e["points"] != want:
            return Violation(f"the field at {e['tiles'][0]} borders {len(towns)} completed "
                             f"towns: worth {want}, not {e['points']}")
        if sorted(e["towns"]) != towns:
            return Violation(f"the field at {e['tiles'][0]} borders the completed towns at "
                             f"{[x[0] for x in towns]}, the event lists "
                             f"{[x[0] for x in e['towns']]}")
    return OK


# --- CARC-FARM-MAJORITY ----------------------------------------------------------------------
def farm_majority(t: Transition, p: Profile) -> Verdict:
    """A farm's points go to every player with the most farmers on it, ties included."""
    events = _events(t, "farm-scored")
    if not events or not farms(p):
        return NA
    for e in events:
        counts = e["meeples"]
        top = max(counts)
        want = [i + 1 for i, c in enumerate(counts) if c == top and c > 0 and e["points"]]
        if e["scorers"] != want:
            return Violation(f"a field with farmers {counts}: scorers {e['scorers']}, the "
                             f"majority rule gives {want}")
    return OK


FARM_ORACLES: list[Oracle] = [
    # how fields join shows only in what farms score: no state-only form (the departure
    # library's field models explain such steps)
    Oracle("CARC-FARM-FIELDS", check=fields_scored, judge=fields_judge, within=farms,
           reads_events=True),
    Oracle("CARC-FARM-CLAIM", check=farm_claim, judge=farm_claim_judge, on=frozenset({"claim"})),
    Oracle("CARC-FARM-STAYS", check=farmers_stay, within=farms, reads_events=True,
           bare=bare.farmers_stay),
    Oracle("CARC-FARM-SCORE", check=farm_score, within=farms, reads_events=True,
           bare=bare_scoring.farm_score),
    Oracle("CARC-FARM-MAJORITY", check=farm_majority, within=farms, reads_events=True,
           bare=bare_scoring.farm_majority),
]
