"""Stage 1's checks of features and meeples: a scored feature is one feature of the board
as joined (CARC-FEATURE-JOIN), one meeple per claim on the tile just placed, on a feature
nobody holds (CARC-CLAIM-*), the supply (CARC-MEEPLE-SUPPLY) and meeples returned once
their feature is scored (CARC-MEEPLE-RETURN).

On canonical JSON and the oracles' own board, never the reference engine. What a feature
scores is `scores`'s; binds no rule id to a check: `checks/__init__.py` does.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, expect
from gamecert.oracles.carcassonne.board import FIELD_SPOTS, Feature
from gamecert.oracles.carcassonne.checks.common import (
    JSON,
    _action_of,
    _cell,
    _events,
    _find,
    _is,
    _key,
    _n,
    board,
    farms,
)
from gamecert.spec import Profile


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
