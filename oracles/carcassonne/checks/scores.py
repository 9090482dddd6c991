"""Stage 1's scoring checks: a completed road, town or monastery is scored in its turn at
the catalogue's value (CARC-*-COMPLETE), at the time the profile's reading says
(CARC-SCORE-TIMING), to the majority holders (CARC-SCORE-MAJORITY), and at the end each
feature still held once at the incomplete rate (CARC-SCORE-INCOMPLETE).

`turn_scoring` is the turn's analysis the completion checks and the timing check share (and
`fast` reads). On canonical JSON, the step's events and the oracles' own board, never the
reference engine. The state-only forms of these rules are `bare_scoring`'s; binds no rule
id to a check: `checks/__init__.py` does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gamecert.oracles.base import NA, OK, Transition, Verdict, Violation, expect
from gamecert.oracles.carcassonne.board import Feature
from gamecert.oracles.carcassonne.checks.common import (
    JSON,
    _cell,
    _events,
    _find,
    _is,
    _key,
    _n,
    board,
)
from gamecert.spec import Profile

COMPLETE_KIND = {"CARC-ROAD-COMPLETE": "road", "CARC-TOWN-COMPLETE": "city",
                 "CARC-MONASTERY-COMPLETE": "monastery"}


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
