"""What a Carcassonne step scores, from the states before and after it and the action alone
(no events): the features the step completes and scores, the features and farms scored at
the end when the step ends the game, a ransom's points, and what each gives each player.

It is the ground of the state-only forms of the scoring oracles (`bare`): an engine that
sends no events shows only its scores, so each scoring rule asks whether its own kind of
departure (a town without its banner bonus, a tie scored by one player...) turns what the
rules give into the scores the engine shows. Built from the rule texts and the oracles'
board analysis (`board.Board`), never from the reference engine.

This module only computes; it judges nothing and names no rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamecert.oracles.carcassonne.board import FIELD_SPOTS, Board, Cell, Feature
from gamecert.spec import Profile

JSON = Any


@dataclass(frozen=True)
class Scored:
    """One feature (or farm) the step scores, with the meeples it is scored with."""

    feature: Feature
    how: str  # "complete", "final" (incomplete at the end) or "farm"
    value: int
    scorers: tuple[int, ...]  # players (1..N) with the most meeples on it; none: nobody


@dataclass(frozen=True)
class StepScoring:
    items: tuple[Scored, ...]
    expected: tuple[int, ...]  # what the rules add to each score in this step
    delta: tuple[int, ...]  # what the engine added
    cell: Cell | None  # the tile whose completions the step scores, if any
    # the completed features due at this step, before any is scored (for the timing rule)
    due_on_tile: tuple[Feature, ...] = ()

    @property
    def diff(self) -> tuple[int, ...]:
        return tuple(g - w for g, w in zip(self.delta, self.expected, strict=True))


def _param(p: Profile, rule: str, name: str) -> int:
    return int(p.param(rule, name))


def value(f: Feature, how: str, p: Profile) -> int:
    """What the catalogue says a feature is worth: completed (CARC-*-COMPLETE), left open at
    the end (CARC-SCORE-INCOMPLETE) or a farm (CARC-FARM-SCORE)."""
    n = len(f.tiles)
    if how == "farm":
        return _param(p, "CARC-FARM-SCORE", "points_per_town") * sum(
            1 for town in f.towns if town.complete)
    if how == "complete":
        if f.kind == "road":
            return n * _param(p, "CARC-ROAD-COMPLETE", "points_per_tile")
        if f.kind == "city":
            return (n * _param(p, "CARC-TOWN-COMPLETE", "points_per_tile")
                    + f.banners * _param(p, "CARC-TOWN-COMPLETE", "points_per_banner"))
        return _param(p, "CARC-MONASTERY-COMPLETE", "points")
    rule = "CARC-SCORE-INCOMPLETE"
    if f.kind == "road":
        return n * _param(p, rule, "road_per_tile")
    if f.kind == "city":
        return n * _param(p, rule, "town_per_tile") + f.banners * _param(p, rule,
                                                                        "town_per_banner")
    return f.present * _param(p, rule, "monastery_per_tile")


def majority(meeples: list[int]) -> tuple[int, ...]:
    """CARC-SCORE-MAJORITY: every player with the most meeples (none when nobody has one)."""
    top = max(meeples, default=0)
    return tuple(i + 1 for i, c in enumerate(meeples) if c == top and c > 0)


def _completed(bd: Board, cell: Cell) -> list[Feature]:
    out: list[Feature] = []
    for f in bd.features_on(cell) + bd.monasteries_near(cell):
        if f.complete and all(f is not g for g in out):
            out.append(f)
    return out


def _is(action: JSON, kind: str) -> bool:
    return isinstance(action, dict) and action.get("type") == kind


def step_scoring(before: JSON, action: JSON, after: JSON, p: Profile) -> StepScoring | None:
    """What the step from `before` by `action` to `after` scores by the rules (None where it
    cannot be read: a placed tile that is not on the board, a claim outside a claim step).
    The tiles are the state after's; the meeples scored are those of the state before (and
    the one a claim puts down)."""
    n = len(before["scores"])
    at_placement = p.variant("CARC-SCORE-TIMING") == "at-placement"
    ended = after.get("result") is not None
    meeples = list(before["meeples"])
    cell: Cell | None = None
    if _is(action, "place"):
        cell = (action["at"][0], action["at"][1])
    elif (_is(action, "claim") or _is(action, "pass")) and before["step"] == "claim" \
            and before["placed"] is not None:
        cell = (before["placed"][0], before["placed"][1])
        if _is(action, "claim"):
            meeples.append({"at": list(cell), "on": action["on"], "player": before["to_move"]})
    elif _is(action, "tower") and isinstance(action.get("capture"), dict):
        gone = action["capture"]
        meeples = [m for m in meeples if not (m["at"] == gone["at"] and m["on"] == gone["on"])]
    bd = Board({**after, "meeples": meeples}, n, p)
    if cell is not None and cell not in bd.cells:
        return None
    due: list[Feature] = []
    due_on_tile: list[Feature] = []
    if cell is not None:
        completed = _completed(bd, cell)
        on_tile = bd.features_on(cell)
        if _is(action, "place"):
            if at_placement or ended:
                due = [f for f in completed if ended or any(f.meeples)
                       or all(f is not g for g in on_tile)]
            due_on_tile = [f for f in due if any(f is g for g in on_tile)]
        else:
            blocked: list[Feature] = []
            if at_placement:
                for spot in before.get("claim_blocked") or []:
                    g = bd.feature_at(cell, spot)
                    if g is not None:
                        blocked.append(g)
                due = [f for f in completed if any(f is g for g in on_tile)
                       and all(f is not g for g in blocked)]
            else:
                due = completed
    items = [Scored(f, "complete", value(f, "complete", p), majority(f.meeples)) for f in due]
    if ended:
        for f in bd.features():
            if any(f.meeples) and all(f is not g for g in due):
                items.append(Scored(f, "final", value(f, "final", p), majority(f.meeples)))
        if p.param("CARC-FARM-FIELDS", "enabled"):
            for f in bd.fields():
                if any(f.meeples):
                    items.append(Scored(f, "farm", value(f, "farm", p), majority(f.meeples)))
    expected = [0] * n
    for item in items:
        for s in item.scorers:
            expected[s - 1] += item.value
    if _is(action, "ransom") and before.get("to_move"):
        cost = _param(p, "CARC-TOWER-RANSOM", "points")
        expected[before["to_move"] - 1] -= cost
        expected[action["captor"] - 1] += cost
    delta = tuple(a - b for a, b in zip(after["scores"], before["scores"], strict=True))
    return StepScoring(tuple(items), tuple(expected), delta, cell, tuple(due_on_tile))


def farmers(state: JSON) -> list[JSON]:
    return [m for m in state["meeples"] if m["on"] in FIELD_SPOTS]


def uniform_on(diff: tuple[int, ...], players: tuple[int, ...]) -> int | None:
    """The one amount `diff` adds to each of `players` and to nobody else, or None."""
    if not players:
        return None
    amounts = {diff[q - 1] for q in players}
    if len(amounts) != 1 or any(d for i, d in enumerate(diff) if i + 1 not in players):
        return None
    return amounts.pop()
