"""Carcassonne's play: the moves the state machine draws (a draw from the bag by weight, a
legal placement or claim, the rarer ones more often: closing placements, claims rather than
passes, The Tower's moves). Chooses actions only: it must not drive engines or judge.
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.carcassonne.crafted import closing_cells
from gamecert.fuzz.games.carcassonne.starts import crafted_ids
from gamecert.reference_engine.carcassonne.engine import (
    AROUND,
    CLAIM,
    DELTA,
    MONASTERY,
    PLACE,
    RIVER_PHASE,
    Carcassonne,
    CarcState,
    unpack,
)
from gamecert.reference_engine.contract import CHANCE

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


GAME = Carcassonne()
JSON = Any

# An engine that loads states plays seeded runs of the machine's rules (fuzz.search.play.
# runs: whole stretches of play, to a game's end and its final scoring, at a small part of
# Hypothesis's cost), from round RUNS_FROM_ROUND on (rounds count from 0). The rounds before
# play one rule a step: there the public mutants fall (each within the first eight rounds
# at seeds 0 to 2), most in a campaign's first examples (a crafted board one tile from its
# rare case), and runs beside them found several later (docs/speed.md, fourth pass).
# Eight rounds are about 3 s of a campaign.
SEEDED_RUNS = True
RUNS_FROM_ROUND = 8


def draw_action(data: st.DataObject, ls: Lockstep) -> JSON:
    state = _ref(ls)
    if GAME.current(state) == CHANCE:
        outcomes = GAME.chance(state)
        kind = _pick(data, outcomes, "draw").action[1]
        return {"type": "draw", "tile": state.cfg.t.ids[kind]}
    actions = GAME.legal(state)
    modes = CRAFTED_PLAY_MODES if _crafted_start(ls) else PLAY_MODES
    mode = data.draw(modes, label="mode")
    rare = [a for a in actions if a[0] in ("ransom", "tower", "cap", "exchange")]
    if mode == "best" and rare:
        # The Tower's moves are a few among many placements or claims: take them often
        actions = rare
    elif mode == "best" and state.step == PLACE:
        # what random play seldom does: close features, several at once
        actions = _best_placement(state, actions) or actions
    elif mode == "best" and state.step == CLAIM and len(actions) > 1:
        actions = actions[1:]  # claim rather than pass: meeples crowd the board
    return GAME.action_to_json(state, _pick(data, actions, "legal index"))


def play_on_action(ls: Lockstep, rng: random.Random) -> JSON:
    """The next action of a game played on past a trace's prefix (fuzz.findings.trace.
    play_on), seeded: "best" play three times in four (close features, claim rather than
    pass), so that what a departure did to a feature shows when it scores; otherwise any
    legal action. A draw is the bag's, by weight."""
    state = _ref(ls)
    if GAME.current(state) == CHANCE:
        outcomes = GAME.chance(state)
        pick = rng.choices(outcomes, weights=[float(o.probability) for o in outcomes])[0]
        return {"type": "draw", "tile": state.cfg.t.ids[pick.action[1]]}
    actions = GAME.legal(state)
    if rng.random() < 0.75:
        if state.step == PLACE:
            actions = _best_placement(state, actions) or actions
        elif state.step == CLAIM and len(actions) > 1:
            actions = actions[1:]
    return GAME.action_to_json(state, rng.choice(actions))


@cache
def index(n: int) -> st.SearchStrategy[int]:
    """An index into a list of n items (shrinks towards the first)."""
    return st.integers(0, max(n - 1, 0))


PLAY_MODES = st.sampled_from(["any", "best", "best"])
# a crafted start is one tile from its rare case: play towards it more often
CRAFTED_PLAY_MODES = st.sampled_from(["any", "best", "best", "best", "best", "best"])


def _pick(data: st.DataObject, items: list[Any], label: str) -> Any:
    return items[data.draw(index(len(items)), label=label)]


def _crafted_start(ls: Lockstep) -> bool:
    start = ls.start_spec or {}
    return start.get("kind") == "state" and id(start.get("state")) in crafted_ids()


def _ref(ls: Lockstep) -> CarcState:
    state: CarcState = ls.ref
    return state


def _hand(state: CarcState) -> list[int]:
    return list(state.hands[state.to_move - 1]) if state.to_move else []


def _place_json(state: CarcState, k: int, pos: int, rot: int) -> JSON:
    return {"type": "place", "tile": state.cfg.t.ids[k], "at": unpack(pos), "rotation": rot}


def _at_river_end(state: CarcState) -> list[tuple[int, int]]:
    """(tile, rotation) of the hand at the river's open end whose land edges fit."""
    river = state.river
    if state.phase != RIVER_PHASE or river.open_pos < 0 or river.open_pos not in state.cells:
        return []
    m, v = state.cells[river.open_pos]
    return [(k, r) for k in sorted(set(_hand(state))) for r in range(4)
            if state.cfg.t.rot[k][r].code & m == v]


def _uturns(state: CarcState) -> list[JSON]:
    """River placements at the open end whose edges fit but which turn back."""
    pos = state.river.open_pos
    return [_place_json(state, k, pos, r) for k, r in _at_river_end(state)
            if GAME.river_problem(state, k, r, pos)]


def _completed_now(state: CarcState) -> int:
    """Features the tile just placed has completed (read in its claim step)."""
    if state.step != CLAIM:
        return 0
    t, pos = state.cfg.t, state.placed
    k, r = state.board[pos]
    done = {state.owner[pos * 8 + i] for i in range(len(t.rot[k][r].segs))}
    for d in AROUND:
        there = state.board.get(pos + d)
        if there is not None and t.rot[there[0]][there[1]].monastery >= 0:
            done.add(state.owner[(pos + d) * 8 + t.rot[there[0]][there[1]].monastery])
    return sum(1 for fid in done if state.feats[fid].open == 0)


def _best_placement(state: CarcState, actions: list[Any]) -> list[Any]:
    """The placements that complete something (those at closing cells, tried out); those
    that complete a monastery, the rarest completion, where there are any."""
    cells = closing_cells(state)
    closing = [a for a in actions if a[0] == "place" and a[2] in cells]
    tried = [(a, closes(state, a[1], a[2], a[3])) for a in closing[:60]]
    done = [a for a, (anything, _) in tried if anything]
    monastery = [a for a, (_, a_monastery) in tried if a_monastery]
    return monastery or done or closing


def closes(state: CarcState, k: int, pos: int, rot: int) -> tuple[bool, bool]:
    """Whether the legal placement (k, pos, rot) completes a feature, and a monastery:
    what playing it through its claim step tells (`crafted._completions`), counted from
    the open edges around the cell instead (a "best" move asks it of every closing
    placement, and the copy of the board a placement makes costs more than the count).
    Counts as the reference's `lay` joins: each of a segment's sides is open, and each
    side met closes one edge on both parts (two on one feature: a loop closed)."""
    t, board, owner, feats = state.cfg.t, state.board, state.owner, state.feats
    rt = t.rot[k][rot]
    # the tile's segments (by index) and the features around (by id), joined as `lay` does
    parent: dict[Any, Any] = {}
    open_of: dict[Any, int] = {}

    def root(x: Any) -> Any:
        while parent[x] != x:
            x = parent[x]
        return x

    for i, seg in enumerate(rt.segs):
        if seg.kind != MONASTERY:
            parent[("seg", i)] = ("seg", i)
            open_of[("seg", i)] = len(seg.sides)
    for side in range(4):
        mine = rt.side_seg[side]
        there = board.get(pos + DELTA[side])
        if mine < 0 or there is None:
            continue
        fid = owner[(pos + DELTA[side]) * 8 + t.rot[there[0]][there[1]].side_seg[(side + 2) % 4]]
        if fid not in parent:
            parent[fid], open_of[fid] = fid, feats[fid].open
        a, b = root(("seg", mine)), root(fid)
        if a == b:
            open_of[a] -= 2
        else:
            parent[b] = a
            open_of[a] += open_of.pop(b) - 2
    anything = any(open_of[root(("seg", i))] == 0 for i, seg in enumerate(rt.segs)
                   if seg.kind != MONASTERY)
    monastery = rt.monastery >= 0 and all(pos + d in board for d in AROUND)
    for d in AROUND:
        there = board.get(pos + d)
        if there is not None:
            m = t.rot[there[0]][there[1]].monastery
            if m >= 0 and feats[owner[(pos + d) * 8 + m]].open == 1:
                monastery = True
    return anything or monastery, monastery

