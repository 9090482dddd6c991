"""Carcassonne's targets for `hypothesis.target`: ties on a feature, several features closed by
one tile, points short of the end, a U-turn in reach, and the tower and farm stages' own.
Reads the reference's state only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamecert.fuzz.games.carcassonne.play import _completed_now, _crafted_start, _ref, _uturns
from gamecert.reference_engine.carcassonne.engine import FIELD, PLACE, RIVER_PHASE, CarcState

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep


JSON = Any


def target_scores(ls: Lockstep) -> dict[str, float]:
    """The rare cases, reported once play has reached them: a tie on a feature, a tile
    closing several features, a score in reach of the end, a U-turn in reach.

    Only for examples that started from a new game or a randomly played position: the
    crafted starts hold these cases already, and Hypothesis hill-climbs every label it
    sees by re-running variants of the best example (a whole pass of them, even after a
    finding), which would spend the round on what the start gave for free."""
    if _crafted_start(ls):
        return {}
    state = _ref(ls)
    # Hypothesis optimises the labels in the order it first met them, and a round's few
    # examples reach only the first: in the tower stage its labels come first
    out: dict[str, float] = _tower_targets(state, ls.ops) if state.cfg.tower else {}
    seen: set[int] = set()
    tie = 0
    for node in state.meeples:
        fid = state.owner[node]
        if fid not in seen:
            seen.add(fid)
            counts = state.feats[fid].meeples
            tie = max(tie, counts.count(max(counts)))
    if tie >= 2:
        out["players tied on a feature"] = float(min(tie, 3))
    short = state.cfg.end_points - max(state.scores)
    if short <= 3:
        out["points short of the end"] = float(-max(short, 0))
    closed = _completed_now(state)
    if closed >= 2:
        out["features closed by one tile"] = float(min(closed, 3))
    if state.phase == RIVER_PHASE and state.step == PLACE and _uturns(state):
        out["a U-turn in reach"] = 1.0
    if state.cfg.farms:
        out.update(_farm_targets(state))
    return out


def _tower_targets(state: CarcState, ops: list[JSON]) -> dict[str, float]:
    """Tower stage: tall towers (CARC-TOWER-REACH), captures (CARC-TOWER-CAPTURE), prisoners
    held both ways or by several captors (CARC-TOWER-EXCHANGE: a capture back makes the
    exchange, or under on-request the mover may ask), and a prisoner's owner on exactly the
    ransom (CARC-TOWER-RANSOM at its limit)."""
    out: dict[str, float] = {}
    if state.towers:
        out["tallest tower"] = float(max(h for h, _ in state.towers.values()))
    captures = sum(1 for op in ops if op.get("op") == "apply"
                   and op["action"].get("type") == "tower" and "capture" in op["action"])
    if captures:
        out["captures in one example"] = float(min(captures, 8))
    held = state.prisoners
    n = state.cfg.players
    pairs = [(a, b) for a in range(n) for b in range(n) if held[a][b]]
    if pairs:
        out["captor-owner pairs holding prisoners"] = float(len(pairs))
        out["prisoners held both ways"] = float(sum(1 for a, b in pairs if held[b][a]))
        ransom = state.cfg.ransom
        owners = {b for _, b in pairs}
        out["a prisoner's owner on the ransom exactly"] = -float(min(
            abs(state.scores[b] - ransom) for b in owners))
    return out


def _farm_targets(state: CarcState) -> dict[str, float]:
    """Farms stage: tied farmers on a field, and farmers on the board close to the final farm
    scoring (fewer tiles left is better), so long games reach CARC-FARM-SCORE."""
    out: dict[str, float] = {}
    fields = [f for f in state.feats.values() if f.kind == FIELD and any(f.meeples)]
    if not fields:
        return out
    tie = max(f.meeples.count(max(f.meeples)) for f in fields)
    if tie >= 2:
        out["players tied on a field"] = float(min(tie, 3))
    left = sum(state.deck) + sum(len(h) for h in state.hands)
    out["tiles left before the farm scoring"] = -float(left)
    return out
