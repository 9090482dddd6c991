"""Carcassonne's one-rule probes (`rule_probes`): actions that each break one rule with a
`judge` hook, and no other, in the current position.

Candidates are built directly for each rule (a tile on a cell that touches nothing, a tile
turned so one edge mismatches, a river tile elsewhere than the river's end or turned back,
a discard while a tile fits, a claim on a held feature or with an empty supply, a tower
floor where none may go...), then kept only where the reference refuses them and the judges
of every rule, asked as if the engine had accepted it, object under that rule alone: "only
that rule" is checked by the oracles themselves. The draws (CARC-RIVER-DRAW,
CARC-RIVER-LAKE-ENDS) are chance steps, which probes are not offered at; they keep
`draw_probe`'s lake-early and missing-tile draws. CARC-FARM-FIELDS judges refusals only.

Built once per reference state (the lockstep's `ref`), at most `PER_RULE` per rule. This
module must not drive engines or raise findings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamecert.oracles import oracles_for
from gamecert.oracles.base import NA, OK
from gamecert.reference_engine.carcassonne.engine import (
    AROUND,
    CLAIM,
    MONASTERY,
    PLACE,
    RIVER_PHASE,
    Carcassonne,
    CarcState,
    unpack,
)
from gamecert.reference_engine.carcassonne.tiles import FIELD_SPOTS, SIDES
from gamecert.reference_engine.contract import IllegalAction

if TYPE_CHECKING:
    from gamecert.fuzz.step.lockstep import Lockstep

JSON = Any
GAME = Carcassonne()
PER_RULE = 3
TRIED = 6  # candidates tried per rule, at most
_JUDGES = [(o.rule, o.judge) for o in oracles_for("carcassonne") if o.judge is not None]
_cache: list[tuple[Any, list[tuple[str, JSON]]]] = []


def _place(state: CarcState, k: int, pos: int, rot: int) -> JSON:
    return {"type": "place", "tile": state.cfg.t.ids[k], "at": unpack(pos), "rotation": rot}


def _hand(state: CarcState) -> list[int]:
    return sorted(set(state.hands[state.to_move - 1])) if state.to_move else []


def _fits(state: CarcState, k: int, pos: int, rot: int) -> bool:
    m, v = state.cells[pos]
    return bool(state.cfg.t.rot[k][rot].code & m == v)


def _placements(state: CarcState) -> dict[str, list[JSON]]:
    """Candidate placements by the rule each is meant to break."""
    out: dict[str, list[JSON]] = {}
    hand = _hand(state)
    if not hand:
        return out
    river = state.phase == RIVER_PHASE
    taken = sorted(state.board)
    corners = sorted({p + d for p in state.board for d in AROUND}
                     - set(state.board) - set(state.cells))
    adjacent = out.setdefault("CARC-PLACE-ADJACENT", [])
    for pos in corners[:2] + taken[:1]:
        adjacent += [_place(state, k, pos, 0) for k in hand[:2]]
    if river:
        end = state.river.open_pos
        if end >= 0 and end in state.cells:
            out["CARC-RIVER-MEETS-RIVER"] = [_place(state, k, end, r) for k in hand
                                             for r in range(4) if not _fits(state, k, end, r)]
            out["CARC-RIVER-NO-UTURN"] = [_place(state, k, end, r) for k in hand
                                          for r in range(4) if _fits(state, k, end, r)
                                          and GAME.river_problem(state, k, r, end)]
        out["CARC-RIVER-CONTIGUOUS"] = [_place(state, k, pos, r) for k in hand
                                        for pos in sorted(state.cells)[:40] if pos != end
                                        for r in range(4) if _fits(state, k, pos, r)][:12]
        return out
    out["CARC-PLACE-MATCH"] = [_place(state, k, pos, r) for k in hand
                               for pos in sorted(state.cells)[:12]
                               for r in range(4) if not _fits(state, k, pos, r)][:12]
    if GAME.any_placement(state):
        out["CARC-HAND-NOFIT"] = [{"type": "discard", "tile": state.cfg.t.ids[k]} for k in hand]
    return out


def _claims(state: CarcState) -> dict[str, list[JSON]]:
    """Candidate claims in a claim step by the rule each is meant to break."""
    out: dict[str, list[JSON]] = {}
    k, r = state.board[state.placed]
    rt = state.cfg.t.rot[k][r]
    spots = [SIDES[s] for s in range(4)] + ["monastery"]
    if state.cfg.farms:
        spots += list(FIELD_SPOTS)
    out["CARC-CLAIM-PLACED-TILE"] = [{"type": "claim", "on": s} for s in spots[:5]]
    held = [SIDES[seg.spot] if seg.kind != MONASTERY else "monastery"
            for i, seg in enumerate(rt.segs)
            if any(state.feats[state.owner[state.placed * 8 + i]].meeples) or i in state.blocked]
    out["CARC-CLAIM-UNCLAIMED"] = [{"type": "claim", "on": s} for s in held]
    out["CARC-MEEPLE-SUPPLY"] = [{"type": "claim", "on": s} for s in spots]
    if state.cfg.farms:
        out["CARC-FARM-CLAIM"] = [{"type": "claim", "on": s} for s in FIELD_SPOTS]
    if state.cfg.tower:
        out.update(_tower(state))
    return out


def _tower(state: CarcState) -> dict[str, list[JSON]]:
    cells = sorted(state.board)
    floors = [{"type": "tower", "at": unpack(p)} for p in cells[:12]]
    captures = [{"type": "tower", "at": unpack(site),
                 "capture": {"at": unpack(node // 8), "on": "top"}}
                for site in GAME.tower_sites(state)[:3] for node in sorted(state.meeples)[:4]]
    out: dict[str, list[JSON]] = {"CARC-TOWER-FLOORS": floors[:4], "CARC-TOWER-ACTION":
           floors + [{"type": "cap", "at": unpack(p)} for p in cells[:6]],
           "CARC-TOWER-REACH": captures}
    n = state.cfg.players
    out["CARC-TOWER-EXCHANGE"] = [{"type": "exchange", "with": q} for q in range(1, n + 1)]
    return out


def _ransoms(state: CarcState) -> list[JSON]:
    return [{"type": "ransom", "captor": q} for q in range(1, state.cfg.players + 1)]


def _only(state: CarcState, ref_json: JSON, profile: Any, rule: str, action: JSON) -> bool:
    """The reference refuses `action`, and of the judges asked as if it were accepted,
    `rule`'s alone objects."""
    try:
        GAME.apply(state, GAME.action_from_json(state, action))
        return False
    except (IllegalAction, KeyError, TypeError, ValueError, IndexError):
        pass
    objecting = set()
    for other, judge in _JUDGES:
        try:
            verdict = judge(ref_json, action, True, profile)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return False
        if verdict is not NA and verdict is not OK:
            objecting.add(other)
    return objecting == {rule}


def rule_probes(ls: Lockstep) -> list[tuple[str, JSON]]:
    """(rule, action) pairs, each breaking that rule and no other here (cached per state)."""
    state: CarcState = ls.ref
    for seen, probes in _cache:
        if seen is state:
            return probes
    out: list[tuple[str, JSON]] = []
    if state.to_move and state.step in (PLACE, CLAIM):
        made = _placements(state) if state.step == PLACE else _claims(state)
        if state.cfg.tower:
            made.setdefault("CARC-TOWER-RANSOM", []).extend(_ransoms(state))
        for rule, actions in made.items():
            kept = 0
            for action in actions[:TRIED]:
                if kept < PER_RULE and _only(state, ls.ref_json, ls.profile, rule, action):
                    out.append((rule, action))
                    kept += 1
    _cache[:] = [(state, out)]
    return out

