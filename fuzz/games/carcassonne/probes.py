"""Carcassonne's probes: for each kind of step, actions the reference probably refuses
(`draw_probe`: a tile not in hand, a cell taken or touching only a corner, a U-turn, a
claim on a claimed feature, a ransom, floor or cap out of place, ...), and the one-rule
probes (`rule_probes`): actions that each break one rule with a `judge` hook, and no
other, in the current position.

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

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from gamecert.fuzz.games.carcassonne.play import (
    _at_river_end,
    _pick,
    _place_json,
    _ref,
    _uturns,
    index,
)
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
    # a floor on a capped tower first: the one action CARC-TOWER-ACTION forbids on a tower
    # (a first few cells alone rarely hold one)
    on_capped = [{"type": "tower", "at": unpack(p)} for p, (_, cap) in
                 sorted(state.towers.items()) if cap]
    out: dict[str, list[JSON]] = {"CARC-TOWER-FLOORS": floors[:4], "CARC-TOWER-ACTION":
           on_capped[:3] + floors + [{"type": "cap", "at": unpack(p)} for p in cells[:6]],
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


def draw_probe(data: st.DataObject, ls: Lockstep) -> JSON:
    state = _ref(ls)
    if state.step == PLACE:
        step = "river" if state.phase == RIVER_PHASE else "land"
    else:
        step = "claim" if state.step == CLAIM else "draw"
    kind = data.draw((PROBES_TOWER if state.cfg.tower else PROBES)[step], label="probe")
    maker = PROBE_MAKERS[kind]
    probe: JSON = maker(data, state)
    return probe


MALFORMED: st.SearchStrategy[JSON] = st.sampled_from([
    {"type": "place", "tile": "U", "at": [0, -1]}, {"type": "claim", "on": "north"},
    {"type": "fly"}, {"type": "place", "tile": "ZZ9", "at": [1, 1], "rotation": 0},
    {"type": "place", "tile": "U", "at": [10**6, 0], "rotation": 0}, {"type": "draw"},
    {"type": "discard", "tile": 7}, {"type": "pass", "extra": 1}, {}, {"type": None},
    {"type": "claim", "on": ["top"]}])  # objects only: a trace records actions as objects
SPOT_NAMES = st.sampled_from([*SIDES, "monastery", *FIELD_SPOTS])  # fields (farms stage)


# the probes worth making in each kind of step; repeats weigh them
PROBES = {
    "draw": st.sampled_from(["lake-early", "lake-early", "draw-missing", "wrong-step",
                             "malformed"]),
    "river": st.sampled_from(["uturn"] * 3 + ["meets-river"] * 3 + ["river-elsewhere"] * 3
                             + ["rotation-7", "foreign-tile", "discard", "off-cell",
                                "wrong-step", "malformed"]),
    "land": st.sampled_from(["mismatch", "mismatch", "mismatch", "diagonal", "diagonal",
                             "off-cell", "foreign-tile", "rotation-7", "discard", "discard",
                             "wrong-step", "malformed"]),
    "claim": st.sampled_from(["claim-no-edge", "claim-no-edge", "claim-claimed",
                              "claim-claimed", "claim-claimed", "claim-any", "wrong-step",
                              "malformed"]),
}
# the tower stage adds ransoms nobody may pay, floors and caps where none may go, captures
# out of reach (the other stages keep their own lists, so their seeded runs stay as they are)
PROBES_TOWER = {
    **PROBES,
    "land": st.sampled_from(["mismatch", "mismatch", "diagonal", "off-cell", "foreign-tile",
                             "rotation-7", "discard", "wrong-step", "ransom-any", "ransom-any",
                             "ransom-any"]),
    "claim": st.sampled_from(["claim-no-edge", "claim-claimed", "claim-claimed", "claim-any",
                              "wrong-step", "malformed", "tower-any", "tower-any", "tower-any",
                              "cap-any", "ransom-any"]),
}


# each probe is usually illegal in the state it is made for; Lockstep.probe drops the
# ones the reference accepts
def _probe_foreign_tile(data: st.DataObject, state: CarcState) -> JSON:
    """A tile that is not in the hand."""
    t = state.cfg.t
    k = data.draw(index(len(t.ids)), label="tile")
    pos = _pick(data, sorted(state.cells), "cell")
    return _place_json(state, k, pos, data.draw(index(4), label="rotation"))


def _probe_off_cell(data: st.DataObject, state: CarcState) -> JSON:
    """A hand tile on a cell that is taken or touches nothing."""
    hand = _hand(state) or [0]
    base = _pick(data, sorted(state.board), "next to")
    offset = _pick(data, [0, -512, 2, 3 + 3 * 256, -1 - 256, 1 + 256], "offset")
    return _place_json(state, _pick(data, hand, "tile"), base + offset,
                       data.draw(index(4), label="rotation"))


def _probe_diagonal(data: st.DataObject, state: CarcState) -> JSON:
    """A hand tile on an empty cell that touches the board only at a corner."""
    corners = sorted({pos + d for pos in state.board for d in AROUND}
                     - set(state.board) - set(state.cells))
    if not corners:
        return _probe_off_cell(data, state)
    hand = _hand(state) or [0]
    return _place_json(state, _pick(data, hand, "tile"), _pick(data, corners, "corner"),
                       data.draw(index(4), label="rotation"))


def _probe_rotation_7(data: st.DataObject, state: CarcState) -> JSON:
    hand = _hand(state) or [0]
    probe = _place_json(state, _pick(data, hand, "tile"),
                        _pick(data, sorted(state.cells), "cell"), 0)
    probe["rotation"] = _pick(data, [7, 4, -1], "rotation")
    return probe


def _probe_mismatch(data: st.DataObject, state: CarcState) -> JSON:
    """A hand tile on an open cell, turned at random: its edges seldom all match."""
    hand = _hand(state) or [0]
    return _place_json(state, _pick(data, hand, "tile"),
                       _pick(data, sorted(state.cells), "cell"),
                       data.draw(index(4), label="rotation"))


def _probe_uturn(data: st.DataObject, state: CarcState) -> JSON:
    turns = _uturns(state)
    return _pick(data, turns, "u-turn") if turns else _probe_meets_river(data, state)


def _probe_meets_river(data: st.DataObject, state: CarcState) -> JSON:
    """A river tile at the open end, turned so that a river edge faces another edge."""
    pos = state.river.open_pos
    hand = _hand(state)
    if pos < 0 or not hand:
        return _probe_mismatch(data, state)
    fits = set(_at_river_end(state))
    wrong = [(k, r) for k in sorted(set(hand)) for r in range(4) if (k, r) not in fits]
    if not wrong:
        return _probe_mismatch(data, state)
    k, r = _pick(data, wrong, "turned")
    return _place_json(state, k, pos, r)


def _probe_river_elsewhere(data: st.DataObject, state: CarcState) -> JSON:
    """A river tile on an open cell other than the river's end, where its edges fit."""
    t = state.cfg.t
    fits = [(k, pos, r) for k in sorted(set(_hand(state))) for pos, (m, v)
            in sorted(state.cells.items()) if pos != state.river.open_pos
            for r in range(4) if t.rot[k][r].code & m == v]
    if not fits:
        return _probe_mismatch(data, state)
    return _place_json(state, *_pick(data, fits, "elsewhere"))


def _probe_discard(data: st.DataObject, state: CarcState) -> JSON:
    hand = _hand(state) or [0]
    return {"type": "discard", "tile": state.cfg.t.ids[_pick(data, hand, "tile")]}


def _probe_lake_early(data: st.DataObject, state: CarcState) -> JSON:
    return {"type": "draw", "tile": "RE"}


def _probe_draw_missing(data: st.DataObject, state: CarcState) -> JSON:
    """A draw of a tile kind the pile does not hold."""
    t = state.cfg.t
    pile = GAME._drawable(state)
    gone = [k for k in range(len(t.ids)) if not pile[k]]
    return {"type": "draw", "tile": t.ids[_pick(data, gone, "tile") if gone else 0]}


def _probe_claim_no_edge(data: st.DataObject, state: CarcState) -> JSON:
    """A claim on a side of the placed tile with no road or town (or a missing
    monastery)."""
    k, r = state.board[state.placed]
    rt = state.cfg.t.rot[k][r]
    spots = [SIDES[s] for s in range(4) if rt.side_seg[s] < 0]
    spots += [] if rt.monastery >= 0 else ["monastery"]
    return {"type": "claim", "on": _pick(data, spots, "spot") if spots else "monastery"}


def _probe_claim_claimed(data: st.DataObject, state: CarcState) -> JSON:
    """A claim on a feature that holds meeples already or was scored at placement."""
    k, r = state.board[state.placed]
    rt = state.cfg.t.rot[k][r]
    taken = [SIDES[seg.spot] if seg.kind != MONASTERY else "monastery"
             for i, seg in enumerate(rt.segs)
             if any(state.feats[state.owner[state.placed * 8 + i]].meeples)
             or i in state.blocked]
    return {"type": "claim", "on": _pick(data, taken, "spot") if taken else "top"}


def _probe_claim_any(data: st.DataObject, state: CarcState) -> JSON:
    """A claim on any spot (refused, for one, when the supply is empty)."""
    return {"type": "claim", "on": data.draw(SPOT_NAMES, label="spot")}


def _probe_ransom_any(data: st.DataObject, state: CarcState) -> JSON:
    """A ransom to any player, most often to one holding the mover's meeples (refused
    without the points, or twice in a turn)."""
    me = state.to_move - 1
    holders = [c + 1 for c, row in enumerate(state.prisoners) if row[me]]
    return {"type": "ransom",
            "captor": _pick(data, [*holders, *holders, *range(1, state.cfg.players + 1)],
                            "captor")}


def _probe_tower_any(data: st.DataObject, state: CarcState) -> JSON:
    """A floor on any tile with a capture of any meeple or capping one on the board."""
    at = unpack(_pick(data, sorted(state.board), "tower cell"))
    victims = [{"at": m["at"], "on": m["on"]} for m in GAME.observe(state)["meeples"]]
    victims += [{"at": unpack(pos), "on": "tower"} for pos, (_, cap) in
                sorted(state.towers.items()) if cap]
    if not victims:
        return {"type": "tower", "at": at}
    return {"type": "tower", "at": at, "capture": _pick(data, victims, "victim")}


def _probe_cap_any(data: st.DataObject, state: CarcState) -> JSON:
    return {"type": "cap", "at": unpack(_pick(data, sorted(state.board), "cap cell"))}


def _probe_wrong_step(data: st.DataObject, state: CarcState) -> JSON:
    options: list[JSON] = [{"type": "pass"}, {"type": "claim", "on": "top"},
                           {"type": "draw", "tile": "U"}, {"type": "discard", "tile": "U"},
                           {"type": "place", "tile": "U", "at": [0, 1], "rotation": 0}]
    return _pick(data, options, "action")


def _probe_malformed(data: st.DataObject, state: CarcState) -> JSON:
    return data.draw(MALFORMED, label="malformed")


# the probe maker of each kind (PROBES, PROBES_TOWER)
PROBE_MAKERS: dict[str, Callable[[st.DataObject, CarcState], JSON]] = {
    "foreign-tile": _probe_foreign_tile,
    "off-cell": _probe_off_cell,
    "diagonal": _probe_diagonal,
    "rotation-7": _probe_rotation_7,
    "mismatch": _probe_mismatch,
    "uturn": _probe_uturn,
    "meets-river": _probe_meets_river,
    "river-elsewhere": _probe_river_elsewhere,
    "discard": _probe_discard,
    "lake-early": _probe_lake_early,
    "draw-missing": _probe_draw_missing,
    "claim-no-edge": _probe_claim_no_edge,
    "claim-claimed": _probe_claim_claimed,
    "claim-any": _probe_claim_any,
    "ransom-any": _probe_ransom_any,
    "tower-any": _probe_tower_any,
    "cap-any": _probe_cap_any,
    "wrong-step": _probe_wrong_step,
    "malformed": _probe_malformed,
}
