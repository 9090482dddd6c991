"""Carcassonne (SYNCS Bot Battle 2025, stage 1), played exactly as `spec/carcassonne.json` says.

Internal actions are small tuples; `action_to_json` / `action_from_json` give the canonical
JSON forms:

* ("draw", kind)               chance: the next pending player draws a tile of `kind`
* ("place", kind, pos, rot)    the player to move places a tile from the hand
* ("discard", kind)            no tile of the hand fits: discard one (CARC-HAND-NOFIT)
* ("claim", seg)               claim segment `seg` of the tile just placed
* ("pass",)                    no claim this turn
* ("invalid",)                 the referee's verdict on a bot reply that bans its bot (what
                               `referee` returns for a bad reply; never applied: bans are the
                               harness's business, CARC-PROTO-LIMITS)

The state, its constants and board building live in `state.py`; reading a canonical state
back is `load.py`, the bot referee is `protocol.py`. The engine is a chain of classes, one
module a job, each building on the one before: `hooks.py` (the rule hooks a mutant
overrides), `moves.py` (legal moves, the referee's reasons, chance), `turns.py` (the start,
scoring, turns, the end), `steps.py` (`apply`). This module's `Carcassonne` completes it with
the canonical JSON of states and actions, `load` and the referee; `action_problem` and
`project` read JSON alone. None of those modules imports this one. It re-exports the state
layer's names (`__all__`), so code written against `engine` keeps working.
"""

from __future__ import annotations

import re
from bisect import insort
from typing import Any

from gamecert.reference_engine.carcassonne.load import load_state
from gamecert.reference_engine.carcassonne.protocol import referee as protocol_referee
from gamecert.reference_engine.carcassonne.state import (
    AROUND,
    CITY,
    CLAIM,
    COMPLETE_RULE,
    DELTA,
    DONE,
    DRAW,
    FEATURE_NAMES,
    FIELD,
    INVALID,
    JSON,
    LAND_PHASE,
    LEFT,
    LIMIT,
    MONASTERY,
    OFF,
    OVER,
    PASS,
    PHASE_NAMES,
    PLACE,
    RIGHT,
    RIVER_EDGE,
    RIVER_PHASE,
    ROAD,
    ROW,
    SPOTS,
    STEP_NAMES,
    STRAIGHT,
    TOWER_CAP,
    Action,
    CarcConfig,
    CarcState,
    Feat,
    River,
    Rot,
    Seg,
    Tables,
    _join,
    lay,
    pack,
    river_step,
    spot_of,
    tables,
    unpack,
    uturn_problem,
)
from gamecert.reference_engine.carcassonne.steps import CarcSteps
from gamecert.reference_engine.carcassonne.tiles import (
    EDGE_KINDS,
    ENCLOSED,
    FIELD_SPOTS,
    HALVES,
    SIDES,
)
from gamecert.reference_engine.contract import IllegalAction
from gamecert.spec import Profile

__all__ = [
    "AROUND", "CITY", "CLAIM", "COMPLETE_RULE", "DELTA", "DONE", "DRAW", "FEATURE_NAMES", "FIELD",
    "INVALID", "JSON", "LAND_PHASE", "LEFT", "LIMIT", "MONASTERY", "OFF", "OVER", "PASS",
    "PHASE_NAMES", "PLACE", "RIGHT", "RIVER_EDGE", "RIVER_PHASE", "ROAD", "ROW", "SPOTS",
    "STEP_NAMES", "STRAIGHT", "Action", "CarcConfig", "CarcState", "Carcassonne", "Feat",
    "River", "Rot", "Seg", "Tables", "_join", "action_problem", "lay", "pack", "project",
    "river_step", "spot_of", "tables", "unpack", "uturn_problem",
]

# --- the game ------------------------------------------------------------------------------
class Carcassonne(CarcSteps):
    """The Carcassonne reference engine (`reference_engine.contract.Game`)."""

    name = "carcassonne"
    # Its canonical state leaves out the features the engine derives and keeps (which
    # tiles a town joins, its banners): a departure there shows only when they score, so
    # the harness's blame replays the agreed steps before (contract.Game.hidden_state)
    hidden_state = True

    # --- canonical JSON ------------------------------------------------------------------
    def observe(self, state: CarcState) -> dict[str, Any]:
        t = state.cfg.t
        ids = t.ids
        placed_spots = self._claim_blocked(state)
        meeples = self._observe_meeples(state)
        return {
            "game": "carcassonne", "profile": state.profile.id, "players": state.cfg.players,
            "phase": PHASE_NAMES[state.phase], "step": STEP_NAMES[state.step],
            "to_move": state.to_move or None, "pending": list(state.pending),
            "after_draws": "next-turn" if state.then_next else "place",
            "board": sorted(({"at": unpack(p), "tile": ids[k], "rotation": r}
                             for p, (k, r) in state.board.items()), key=lambda b: b["at"]),
            "placed": unpack(state.placed) if state.placed >= 0 else None,
            "claim_blocked": placed_spots,
            "meeples": meeples, "supply": list(state.supply), "scores": list(state.scores),
            "hands": [_names(ids, h) for h in state.hands],
            "deck": _counts(ids, state.deck),
            "river_pile": _counts(ids, state.river_pile),
            "discarded": _names(ids, state.discarded),
            "result": state.result,
            **(self._observe_towers(state) if state.cfg.tower else {}),
        }

    @staticmethod
    def _claim_blocked(state: CarcState) -> list[str]:
        """The spots of the tile just placed that scored at placement (not claimable)."""
        if state.placed < 0:
            return []
        kind, rot = state.board[state.placed]
        segs = state.cfg.t.rot[kind][rot].segs
        return sorted(SPOTS[segs[i].spot] for i in state.blocked)

    @staticmethod
    def _observe_meeples(state: CarcState) -> list[dict[str, Any]]:
        t = state.cfg.t
        meeples = []
        for node, player in state.meeples.items():
            kind, rot = state.board[node // 8]
            meeples.append({"at": unpack(node // 8),
                            "on": spot_of(t.rot[kind][rot], node % 8), "player": player})
        meeples.sort(key=lambda m: (m["at"], m["on"]))
        return meeples

    def observe_next(self, before: CarcState, seen: dict[str, Any],
                     after: CarcState) -> dict[str, Any]:
        """`observe(after)`, for a state `after` that `apply` reached from `before` (one step
        or more) where `seen` is `observe(before)`: a part of `after` that is the very object
        `before` had (states are immutable, and `apply` copies what it changes) is `seen`'s
        part, shared, not rebuilt; a board that gained one tile gets it inserted in order.
        Only the harness calls it, on its own reference's states (fuzz.step.lockstep): the JSON it
        returns shares lists with `seen`, so neither may be changed afterwards. Anything
        else (another profile, a board that lost or changed tiles) is observed in full."""
        if after.cfg is not before.cfg:
            return self.observe(after)
        board = self._board_next(before, seen["board"], after)
        if board is None:
            return self.observe(after)
        ids = after.cfg.t.ids
        out = dict(seen)  # the parts this state shares with `before`'s stay `seen`'s
        out.update({
            "phase": PHASE_NAMES[after.phase], "step": STEP_NAMES[after.step],
            "to_move": after.to_move or None,
            "after_draws": "next-turn" if after.then_next else "place",
            "board": board,
            "placed": unpack(after.placed) if after.placed >= 0 else None,
            "claim_blocked": self._claim_blocked(after),
            "result": after.result,
        })
        # a placed tile never changes: nor do the spots of the meeples on it
        if after.meeples is not before.meeples:
            out["meeples"] = self._observe_meeples(after)
        if after.pending is not before.pending:
            out["pending"] = list(after.pending)
        if after.supply is not before.supply:
            out["supply"] = list(after.supply)
        if after.scores is not before.scores:
            out["scores"] = list(after.scores)
        if after.hands is not before.hands:
            out["hands"] = [_names(ids, h) for h in after.hands]
        if after.deck is not before.deck:
            out["deck"] = _counts(ids, after.deck)
        if after.river_pile is not before.river_pile:
            out["river_pile"] = _counts(ids, after.river_pile)
        if after.discarded is not before.discarded:
            out["discarded"] = _names(ids, after.discarded)
        if after.cfg.tower and not (
                after.towers is before.towers and after.floors is before.floors
                and after.prisoners is before.prisoners
                and after.ransomed == before.ransomed):
            out.update(self._observe_towers(after))
        return out

    @staticmethod
    def _board_next(before: CarcState, seen: list[Any], after: CarcState) -> list[Any] | None:
        """`observe(after)["board"]` from `seen` (`before`'s): the same list when the board
        is the same object; a copy with the one new tile inserted in order when `after`'s
        board is `before`'s plus one tile (`lay` copies the board and adds the tile last,
        and a tile once laid never changes); None (observe it in full) otherwise."""
        if after.board is before.board:
            return seen
        if len(after.board) != len(before.board) + 1 or len(seen) != len(before.board):
            return None
        pos = next(reversed(after.board))
        if pos in before.board:
            return None
        kind, rot = after.board[pos]
        out = seen.copy()
        insort(out, {"at": unpack(pos), "tile": after.cfg.t.ids[kind], "rotation": rot},
               key=_at)
        return out

    def _observe_towers(self, state: CarcState) -> dict[str, Any]:
        """The tower stage's part of the canonical state (absent in the other stages)."""
        return {
            "towers": [{"at": unpack(pos), "height": h, "cap": cap or None}
                       for pos, (h, cap) in sorted(state.towers.items(),
                                                   key=lambda kv: unpack(kv[0]))],
            "floors": list(state.floors),
            "prisoners": [list(row) for row in state.prisoners],
            "ransom_paid": state.ransomed,
        }

    def load(self, profile: Profile, observed: Any) -> CarcState:
        return load_state(profile, observed)

    def adopt(self, profile: Profile, observed: Any) -> CarcState:
        """An engine's state as it is, for the harness to go on from after a departure:
        any well-formed state whose tiles lie connected and matching from the origin,
        whether or not the rules could have reached it (a turned spring, a U-turn, a tile
        short, meeples kept on a completed feature, a score past the limit)."""
        return load_state(profile, observed, strict=False)

    def action_to_json(self, state: CarcState, action: Action) -> dict[str, Any]:
        t, kind = state.cfg.t, action[0]
        if kind == "place":
            return {"type": "place", "tile": t.ids[action[1]], "at": unpack(action[2]),
                    "rotation": action[3]}
        if kind in ("draw", "discard"):
            return {"type": kind, "tile": t.ids[action[1]]}
        if kind == "claim":
            k, r = state.board[state.placed]
            return {"type": "claim", "on": spot_of(t.rot[k][r], action[1])}
        if kind == "tower":
            out: dict[str, Any] = {"type": "tower", "at": unpack(action[1])}
            if action[2] != -1:
                cell, seg = action[2], action[3]
                k, r = state.board[cell]
                on = "tower" if seg == TOWER_CAP else spot_of(t.rot[k][r], seg)
                out["capture"] = {"at": unpack(cell), "on": on}
            return out
        if kind == "cap":
            return {"type": "cap", "at": unpack(action[1])}
        if kind == "ransom":
            return {"type": "ransom", "captor": action[1]}
        if kind == "exchange":
            return {"type": "exchange", "with": action[1]}
        return {"type": kind}

    def action_from_json(self, state: CarcState, data: Any) -> Action:
        problem = action_problem(data)
        if problem:
            raise IllegalAction(f"not a Carcassonne action: {problem}")
        t, kind = state.cfg.t, data["type"]
        if kind in ("place", "draw", "discard"):
            if data["tile"] not in t.index:
                raise IllegalAction(f"no tile {data['tile']!r} in the tile catalogue")
            k = t.index[data["tile"]]
            if kind != "place":
                return (kind, k)
            x, y = data["at"]
            if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT):
                raise IllegalAction(f"cell [{x}, {y}] is off any reachable part of the board")
            return ("place", k, pack(x, y), data["rotation"])
        if kind == "claim":
            return ("claim", self.claim_segment(state, data["on"]))
        if kind in ("tower", "cap"):
            x, y = data["at"]
            if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT):
                raise IllegalAction(f"cell [{x}, {y}] is off any reachable part of the board")
            if kind == "cap":
                return ("cap", pack(x, y))
            if "capture" not in data:
                return ("tower", pack(x, y), -1, -1)
            cx, cy = data["capture"]["at"]
            cell = pack(cx, cy) if -LIMIT <= cx <= LIMIT and -LIMIT <= cy <= LIMIT else -2
            return ("tower", pack(x, y), cell, self.capture_segment(state, cell,
                                                                      data["capture"]["on"]))
        if kind == "ransom":
            return ("ransom", data["captor"])
        if kind == "exchange":
            return ("exchange", data["with"])
        return (kind,)

    def capture_segment(self, state: CarcState, cell: int, spot: str) -> int:
        """The segment a capture names: the meeple on `spot` of the tile at `cell` (its
        canonical spot), or TOWER_CAP for the meeple capping the tower there."""
        if cell not in state.board:
            raise IllegalAction("a capture names a meeple on a placed tile (CARC-TOWER-CAPTURE)")
        if spot == "tower":
            return TOWER_CAP
        k, r = state.board[cell]
        rt = state.cfg.t.rot[k][r]
        for seg in range(len(rt.segs) + len(rt.fields)):
            if spot_of(rt, seg) == spot:
                return seg
        raise IllegalAction(f"the tile at {unpack(cell)} has nothing named {spot!r} "
                            f"(CARC-TOWER-CAPTURE)")

    def claim_segment(self, state: CarcState, spot: str) -> int:
        """The segment of the placed tile a claim on `spot` (a side, "monastery", or in the farms
        stage a half-edge naming a field) names."""
        if state.step != CLAIM:
            raise IllegalAction("no tile was just placed: there is nothing to claim")
        k, r = state.board[state.placed]
        rt = state.cfg.t.rot[k][r]
        if spot in FIELD_SPOTS:
            if not state.cfg.farms:
                raise IllegalAction(f"{spot!r} names a field: farmers are only played from the "
                                    f"farms stage on (CARC-FARM-CLAIM)")
            if spot == ENCLOSED:
                inner = [j for j, f in enumerate(rt.fields) if not f.halves]
                if not inner:
                    raise IllegalAction("the placed tile has no enclosed field (CARC-FARM-CLAIM)")
                return len(rt.segs) + inner[0]
            j = rt.half_field[HALVES.index(spot)]
            if j < 0:
                raise IllegalAction(f"the placed tile's half-edge {spot} lies on a town: no "
                                    f"field there (CARC-FARM-CLAIM)")
            return len(rt.segs) + j
        if spot == "monastery":
            if rt.monastery < 0:
                raise IllegalAction("the placed tile has no monastery")
            return rt.monastery
        s = SIDES.index(spot)
        seg = rt.side_seg[s]
        if seg < 0:
            edge = EDGE_KINDS[rt.edges[s]]
            raise IllegalAction(f"the placed tile's {spot} edge is a {edge}: nothing to claim "
                                f"there (CARC-CLAIM-PLACED-TILE)")
        return seg

    def referee(self, state: CarcState, text: str) -> Action:
        """CARC-PROTO-FRAME and CARC-PROTO-REPLY: the action a bot's raw reply amounts to, or
        INVALID (`{"type": "invalid"}`: the reply bans its bot) when it is malformed or asks
        for an illegal move. The wire's bot_output answers with an action either way;
        `protocol.referee` says why a reply is invalid."""
        if state.step not in (PLACE, CLAIM):
            raise IllegalAction("no player is asked to move now")
        try:
            return protocol_referee(self, state, text)
        except IllegalAction:
            return INVALID


ACTION_FIELDS = {"place": ("tile", "at", "rotation"), "draw": ("tile",), "discard": ("tile",),
                 "claim": ("on",), "pass": (), "tower": ("at",), "cap": ("at",),
                 "ransom": ("captor",), "exchange": ("with",)}
OPTIONAL_FIELDS = {"tower": ("capture",)}
TILE_ID = re.compile(r"^[A-Z][A-Z0-9]{0,3}$")  # schemas/carcassonne-action.schema.json


def _at(entry: dict[str, Any]) -> list[int]:
    return entry["at"]  # type: ignore[no-any-return]


def action_problem(data: Any) -> str | None:
    """Why `data` is not a Carcassonne action (`schemas/carcassonne-action.schema.json`), in
    words a bot author can act on; None for a well-formed action. Stricter than the schema
    in one way only: numbers must be written as integers (2, not 2.0)."""
    if not isinstance(data, dict):
        return f"an action is a JSON object, not {type(data).__name__}"
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_FIELDS:
        return f"type {kind!r} is not one of {', '.join(ACTION_FIELDS)}"
    fields = ACTION_FIELDS[kind]
    missing = [f for f in fields if f not in data]
    if missing:
        return f"a {kind} action needs {', '.join(missing)}"
    extra = sorted(str(k) for k in data if k != "type" and k not in fields
                   and k not in OPTIONAL_FIELDS.get(kind, ()))
    if extra:
        return f"a {kind} action has no field {', '.join(extra)}"
    if "tile" in data and not (isinstance(data["tile"], str) and TILE_ID.search(data["tile"])):
        return f"tile {data['tile']!r} is not a tile id (A-X, RS, R1-R9, RE)"
    if kind == "place":
        at, rot = data["at"], data["rotation"]
        if not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)):
            return f"at {at!r} is not a cell [x, y] of two integers"
        if type(rot) is not int or not 0 <= rot <= 3:
            return f"rotation {rot!r} is not 0, 1, 2 or 3 (clockwise quarter turns)"
    if kind in ("tower", "cap") and not _cell_ok(data["at"]):
        return f"at {data['at']!r} is not a cell [x, y] of two integers"
    if kind == "tower" and "capture" in data:
        cap = data["capture"]
        if not (isinstance(cap, dict) and cap.keys() == {"at", "on"} and _cell_ok(cap["at"])
                and cap["on"] in (*SPOTS, *FIELD_SPOTS, "tower")):
            return (f"capture {cap!r} is not {{\"at\": [x, y], \"on\": spot}} (a side, "
                    f"monastery, a field's half-edge, or tower)")
    if kind == "ransom" and (type(data["captor"]) is not int or not 1 <= data["captor"] <= 5):
        return f"captor {data['captor']!r} is not a player 1-5"
    if kind == "exchange" and (type(data["with"]) is not int or not 1 <= data["with"] <= 5):
        return f"with {data['with']!r} is not a player 1-5"
    if kind == "claim" and data["on"] not in SPOTS and data["on"] not in FIELD_SPOTS:
        return (f"a claim on {data['on']!r}: a claim names a side of the placed tile (top, "
                f"right, bottom, left), its monastery, or a field by a half-edge (top1, top2, "
                f"... left2) or, enclosed by towns, as {ENCLOSED!r}")
    return None


def _cell_ok(at: Any) -> bool:
    return isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)


def project(state_json: dict[str, Any], player: int) -> dict[str, Any]:
    """What `player` may see of a canonical state: other hands and the piles become counts.

    The piles are hidden too: with the board and the full tile set they would give away the
    hands.
    """
    out = dict(state_json)
    out["view"] = player
    out["hands"] = [h if i + 1 == player else {"count": len(h)}
                    for i, h in enumerate(state_json["hands"])]
    out["deck"] = {"count": sum(state_json["deck"].values())}
    out["river_pile"] = {"count": sum(state_json["river_pile"].values())}
    return out


def _names(ids: Any, kinds: Any) -> list[str]:
    """Tile kinds (indexes) as their sorted names: a hand, the discards."""
    return sorted(ids[k] for k in kinds)


def _counts(ids: Any, counts: Any) -> dict[str, int]:
    """A count per tile kind (by index) as {name: count}, the kinds with none left out."""
    return {ids[k]: c for k, c in enumerate(counts) if c}
