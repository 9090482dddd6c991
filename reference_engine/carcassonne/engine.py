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
back is `load.py`, the bot referee is `protocol.py`. This module builds on all three and none
of them imports it. It re-exports the state layer's names (`__all__`), so code written
against `engine` keeps working.
"""

from __future__ import annotations

import random
import re
from bisect import insort
from fractions import Fraction
from typing import Any

from gamecert.reference_engine.carcassonne import rules
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
    _add,
    _join,
    _sorted_hand,
    field_towns,
    lay,
    pack,
    river_step,
    spot_of,
    tables,
    unpack,
    uturn_problem,
)
from gamecert.reference_engine.carcassonne.tiles import (
    EDGE_KINDS,
    ENCLOSED,
    FIELD_SPOTS,
    HALVES,
    SIDES,
)
from gamecert.reference_engine.contract import CHANCE, TERMINAL, IllegalAction, Outcome
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
class Carcassonne:
    """The Carcassonne reference engine (`reference_engine.contract.Game`)."""

    name = "carcassonne"
    # Its canonical state leaves out the features the engine derives and keeps (which
    # tiles a town joins, its banners): a departure there shows only when they score, so
    # the harness's blame replays the agreed steps before (contract.Game.hidden_state)
    hidden_state = True

    # --- contract ------------------------------------------------------------------------
    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        cfg = CarcConfig.of(profile)
        t = cfg.t
        n = cfg.players
        board: dict[int, tuple[int, int]] = {}
        cells: dict[int, tuple[int, int]] = {}
        owner: dict[int, int] = {}
        feats: dict[int, Feat] = {}
        origin = pack(0, 0)
        lay(t, board, cells, owner, feats, origin, t.spring, 0, n,  # CARC-RIVER-SPRING
            fields=cfg.farms, river_joins=cfg.river_joins)
        flow = t.rot[t.spring][0].river[0]
        river = River(origin + DELTA[flow], flow, STRAIGHT, STRAIGHT)
        deck = tuple(c if i in t.land else 0 for i, c in enumerate(t.counts))
        pile = tuple(c if i in t.river and i != t.spring else 0 for i, c in enumerate(t.counts))
        state = CarcState(cfg, RIVER_PHASE, DRAW, 1, (1,), False, board, cells, owner, feats,
                          {}, (cfg.meeples,) * n, (0,) * n, ((),) * n, deck, pile, (), -1,
                          frozenset(), river)
        if cfg.tower:  # CARC-TOWER-FLOORS
            state = state._replace(floors=(cfg.floors,) * n, prisoners=((0,) * n,) * n)
        return state

    def current(self, state: CarcState) -> int:
        if state.step == DONE:
            return TERMINAL
        if state.step == DRAW:
            return CHANCE
        return state.to_move

    def scores(self, state: CarcState) -> list[int]:
        return list(state.scores)

    def award_points(self, counts: Any, points: Any, max2: rules.Max2 = max,
                     ite: rules.Ite = rules.py_ite) -> list[Any]:
        """CARC-SCORE-MAJORITY as the engine scores it; runs on z3 terms for the proof."""
        return rules.award(counts, points, max2, ite)

    # --- rule hooks ----------------------------------------------------------------------
    # Each rule decision the engine makes in more than one place, or deep inside a long
    # method, is one small method here: the one place to read it, and the one method a
    # mutant engine (examples/engines/carcassonne) overrides to break that rule alone.
    join_features = staticmethod(_join)  # CARC-FEATURE-JOIN

    def river_problem(self, state: CarcState, k: int, rot: int, pos: int) -> str | None:
        """CARC-RIVER-NO-UTURN for a river tile at the river's open end."""
        return uturn_problem(state.cfg, state.board, state.river, k, rot, pos)

    def has_meeple(self, state: CarcState, player: int) -> bool:
        """CARC-MEEPLE-SUPPLY: whether `player` has a meeple to claim with."""
        return state.supply[player - 1] > 0

    def lay_tile(self, cfg: CarcConfig, board: dict[int, tuple[int, int]],
                 cells: dict[int, tuple[int, int]], owner: dict[int, int],
                 feats: dict[int, Feat], pos: int, k: int, rot: int) -> None:
        """CARC-FEATURE-JOIN and CARC-FARM-FIELDS: lay a tile, joining its features and (in
        the farms stage) its fields to those around."""
        lay(cfg.t, board, cells, owner, feats, pos, k, rot, cfg.players, self.join_features,
            fields=cfg.farms, river_joins=cfg.river_joins)

    def field_free(self, f: Feat, player: int) -> bool:
        """CARC-FARM-CLAIM: whether `player` may put a farmer on field `f` as joined."""
        return not any(f.meeples)

    def farm_points(self, cfg: CarcConfig, towns: list[Feat]) -> int:
        """CARC-FARM-SCORE: a field's worth, from the towns it borders."""
        return cfg.farm_town_pts * sum(1 for town in towns if town.open == 0)

    def farm_award(self, counts: Any, points: Any, max2: rules.Max2 = max,
                   ite: rules.Ite = rules.py_ite) -> list[Any]:
        """CARC-FARM-MAJORITY: who scores a field: every player with the most farmers. The
        same majority predicate as features; runs on z3 terms for the proof."""
        return rules.award(counts, points, max2, ite)

    def feature_free(self, f: Feat, player: int) -> bool:
        """CARC-CLAIM-UNCLAIMED: whether `player` may claim feature `f` as joined."""
        return not any(f.meeples)

    def scored_at_placement(self, f: Feat, on_tile: bool) -> bool:
        """CARC-SCORE-TIMING at-placement: a completed feature scores at once when it holds
        meeples or lies off the placed tile; one on the tile waits for the claim step."""
        return any(f.meeples) or not on_tile

    def completed_points(self, cfg: CarcConfig, f: Feat) -> int:
        """CARC-ROAD/TOWN/MONASTERY-COMPLETE: what a completed feature is worth."""
        value: int = rules.completed_value(FEATURE_NAMES[f.kind], len(f.tiles), f.banners,
                                           cfg.road_pts, cfg.town_pts, cfg.banner_pts,
                                           cfg.monastery_pts)
        return value

    def final_points(self, cfg: CarcConfig, f: Feat) -> int:
        """CARC-SCORE-INCOMPLETE: what a feature left open at the end is worth."""
        value: int = rules.incomplete_value(FEATURE_NAMES[f.kind], len(f.tiles), f.banners,
                                            9 - f.open, cfg.inc_road, cfg.inc_town,
                                            cfg.inc_banner, cfg.inc_monastery)
        return value

    def winners(self, cfg: CarcConfig, scores: list[int]) -> list[int]:
        """CARC-WINNER: the players with the most points, or none on a tie under `none`."""
        out = [i + 1 for i in range(cfg.players) if rules.is_winner(scores, i)]
        return [] if not cfg.shared_win and len(out) > 1 else out

    def placed_event(self, state: CarcState, k: int, pos: int, rot: int) -> JSON:
        """The tile-placed event (CARC-BOARD-COORDS: the cell as [x, y])."""
        return {"type": "tile-placed",
                "rule": ("CARC-RIVER-CONTIGUOUS" if state.phase == RIVER_PHASE
                         else "CARC-PLACE-MATCH"),
                "player": state.to_move, "tile": state.cfg.t.ids[k], "at": unpack(pos),
                "rotation": rot}

    # --- legal moves ---------------------------------------------------------------------
    def placements(self, state: CarcState, kinds: Any = None) -> list[Action]:
        """Every legal ("place", kind, pos, rot) for the given kinds (default: the hand)."""
        t, out = state.cfg.t, []
        hand = state.hands[state.to_move - 1] if kinds is None else kinds
        if state.phase == RIVER_PHASE:
            river = state.river
            if river.open_pos < 0 or river.open_pos in state.board:
                return []
            m, v = state.cells[river.open_pos]
            for k in sorted(set(hand)):
                for r in range(4):
                    if t.rot[k][r].code & m == v and self.river_problem(
                            state, k, r, river.open_pos) is None:
                        out.append(("place", k, river.open_pos, r))
            return out
        items = sorted(state.cells.items())
        add = out.append
        for k in sorted(set(hand)):
            rk = t.rot[k]
            c0, c1, c2, c3 = rk[0].code, rk[1].code, rk[2].code, rk[3].code
            for pos, (m, v) in items:  # a cell's constraint: edge bits under `m` equal `v`
                if c0 & m == v:
                    add(("place", k, pos, 0))
                if c1 & m == v:
                    add(("place", k, pos, 1))
                if c2 & m == v:
                    add(("place", k, pos, 2))
                if c3 & m == v:
                    add(("place", k, pos, 3))
        return out

    def any_placement(self, state: CarcState) -> bool:
        """Whether any tile of the hand fits anywhere (CARC-HAND-NOFIT decides on this)."""
        if state.phase == RIVER_PHASE:
            return bool(self.placements(state))
        t = state.cfg.t
        for k in set(state.hands[state.to_move - 1]):
            codes = [rt.code for rt in t.rot[k]]
            for m, v in state.cells.values():
                for c in codes:
                    if c & m == v:
                        return True
        return False

    def claims(self, state: CarcState) -> list[Action]:
        """Every legal ("claim", seg) on the tile just placed."""
        if state.step != CLAIM or not self.has_meeple(state, state.to_move):
            return []
        kind, rot = state.board[state.placed]
        out = []
        base = state.placed * 8
        rt = state.cfg.t.rot[kind][rot]
        for i in range(len(rt.segs)):
            if i in state.blocked:
                continue
            if self.feature_free(state.feats[state.owner[base + i]], state.to_move):
                out.append(("claim", i))
        if state.cfg.farms:
            for j in range(len(rt.fields)):
                i = len(rt.segs) + j
                if self.field_free(state.feats[state.owner[base + i]], state.to_move):
                    out.append(("claim", i))
        return out

    def legal(self, state: CarcState) -> list[Action]:
        if state.step == PLACE:
            places = self.placements(state)
            if not places:
                places = [("discard", k) for k in sorted(set(state.hands[state.to_move - 1]))]
            if state.cfg.tower and state.cfg.ransom_before:
                places += self.ransoms(state)
            if state.cfg.tower and not state.cfg.exchange_now:
                places += self.exchanges(state)
            return places
        if state.step == CLAIM:
            out = [PASS, *self.claims(state)]
            if state.cfg.tower:
                out += self.tower_actions(state)
                if not state.cfg.ransom_before:
                    out += self.ransoms(state)
            return out
        return []

    # --- The Tower -----------------------------------------------------------------------
    def tower_sites(self, state: CarcState) -> list[int]:
        """CARC-TOWER-ACTION: the foundations and uncapped towers a floor or a capping meeple
        may go on now (any on the board, or the placed tile's, by the chosen reading)."""
        t = state.cfg.t
        if state.cfg.tower_anywhere:
            sites = sorted(pos for pos, (k, r) in state.board.items() if t.rot[k][r].tower)
        else:
            k, r = state.board[state.placed]
            sites = [state.placed] if t.rot[k][r].tower else []
        return [pos for pos in sites if not state.towers.get(pos, (0, 0))[1]]

    def floors_left(self, state: CarcState, player: int) -> bool:
        """CARC-TOWER-FLOORS: whether `player` has a floor to place."""
        return state.floors[player - 1] > 0

    def reach_cells(self, state: CarcState, pos: int, height: int) -> list[int]:
        """CARC-TOWER-REACH: the cells a tower of `height` at `pos` reaches: its own and up to
        `height` steps along the four straight lines, over empty cells and other towers."""
        return [pos] + [pos + k * d for d in DELTA for k in range(1, height + 1)]

    def in_reach(self, state: CarcState, pos: int, height: int) -> list[tuple[int, int]]:
        """Every meeple a new floor making the tower at `pos` `height` high may capture:
        (cell, segment) for a meeple on a feature, (cell, TOWER_CAP) for a capping one."""
        out: list[tuple[int, int]] = []
        for cell in self.reach_cells(state, pos, height):
            if cell not in state.board:
                continue
            for seg in range(8):
                if cell * 8 + seg in state.meeples:
                    out.append((cell, seg))
            if cell != pos and state.towers.get(cell, (0, 0))[1]:
                out.append((cell, TOWER_CAP))
        return sorted(set(out))

    def tower_actions(self, state: CarcState) -> list[Action]:
        """Every legal floor (with each capture it allows) and capping meeple."""
        p = state.to_move
        out: list[Action] = []
        floors = self.floors_left(state, p)
        supply = self.has_meeple(state, p)
        for pos in self.tower_sites(state):
            height = state.towers.get(pos, (0, 0))[0]
            if floors:
                out.append(("tower", pos, -1, -1))
                out += [("tower", pos, c, seg) for c, seg in self.in_reach(state, pos,
                                                                           height + 1)]
            if supply and height:
                out.append(("cap", pos))
        return out

    def ransom_allowed(self, state: CarcState, payer: int, captor: int) -> str | None:
        """CARC-TOWER-RANSOM: why `payer` may not buy a meeple back from `captor` now."""
        if state.ransomed:
            return "a ransom was already paid this turn"
        if state.scores[payer - 1] < state.cfg.ransom:
            return (f"player {payer} has {state.scores[payer - 1]} points, fewer than the "
                    f"ransom of {state.cfg.ransom}")
        if not state.prisoners[captor - 1][payer - 1]:
            return f"player {captor} holds no meeple of player {payer}"
        return None

    def ransoms(self, state: CarcState) -> list[Action]:
        p = state.to_move
        return [("ransom", c) for c in range(1, state.cfg.players + 1)
                if c != p and self.ransom_allowed(state, p, c) is None]

    def exchanges(self, state: CarcState) -> list[Action]:
        """CARC-TOWER-EXCHANGE on-request: the players the mover may swap prisoners with."""
        p = state.to_move
        return [("exchange", q) for q in range(1, state.cfg.players + 1)
                if q != p and state.prisoners[p - 1][q - 1] and state.prisoners[q - 1][p - 1]]

    def _exchange(self, state: CarcState, other: Any) -> tuple[CarcState, list[JSON]]:
        if ("exchange", other) not in self.exchanges(state):
            raise IllegalAction(f"player {state.to_move} and player {other!r} do not hold each "
                                f"other's meeples (CARC-TOWER-EXCHANGE)")
        prisoners = [list(row) for row in state.prisoners]
        supply = list(state.supply)
        events: list[JSON] = []
        self.exchange(prisoners, supply, state.to_move, other, events)
        return state._replace(prisoners=tuple(tuple(row) for row in prisoners),
                              supply=tuple(supply)), events

    def ransom_points(self, state: CarcState) -> tuple[int, int]:
        """CARC-TOWER-RANSOM: what the payer loses and the captor gains."""
        return state.cfg.ransom, state.cfg.ransom

    def exchange(self, prisoners: list[list[Any]], supply: list[Any], a: int, b: int,
                 events: list[JSON] | None, ite: rules.Ite = rules.py_ite) -> None:
        """CARC-TOWER-EXCHANGE: when players a and b each hold one of the other's meeples,
        one of each goes home (one capture makes at most one such pair). Operators only, so
        `gamecert prove` runs it on z3 terms (`ite`, no events)."""
        k = ite(prisoners[a - 1][b - 1] > 0, ite(prisoners[b - 1][a - 1] > 0, 1, 0), 0)
        prisoners[a - 1][b - 1] = prisoners[a - 1][b - 1] - k
        prisoners[b - 1][a - 1] = prisoners[b - 1][a - 1] - k
        supply[a - 1] = supply[a - 1] + k
        supply[b - 1] = supply[b - 1] + k
        if events is not None and k:
            events.append({"type": "prisoners-exchanged", "rule": "CARC-TOWER-EXCHANGE",
                           "players": sorted((a, b))})

    def capture(self, state: CarcState, cell: int, seg: int, events: list[JSON]) -> CarcState:
        """CARC-TOWER-CAPTURE: take the meeple at (cell, seg) off the board; the captor is the
        player to move."""
        p = state.to_move
        towers, feats, meeples = dict(state.towers), dict(state.feats), dict(state.meeples)
        if seg == TOWER_CAP:
            height, owner = towers[cell]
            towers[cell] = (height, 0)  # the tower is open again
            spot = "tower"
        else:
            node = cell * 8 + seg
            owner = meeples.pop(node)
            fid = state.owner[node]
            f = feats[fid]
            feats[fid] = f._replace(meeples=_add(f.meeples, owner - 1, -1))
            k, r = state.board[cell]
            spot = spot_of(state.cfg.t.rot[k][r], seg)
        supply, prisoners = rules.capture_tallies(state.supply, state.prisoners, p - 1, owner - 1)
        events.append({"type": "meeple-captured", "rule": "CARC-TOWER-CAPTURE", "player": p,
                       "owner": owner, "at": unpack(cell), "on": spot,
                       "to": "supply" if owner == p else "prison"})
        if owner != p and state.cfg.exchange_now:
            self.exchange(prisoners, supply, p, owner, events)
        return state._replace(towers=towers, feats=feats, meeples=meeples,
                              supply=tuple(supply),
                              prisoners=tuple(tuple(row) for row in prisoners))

    def _tower(self, state: CarcState, pos: Any, cell: Any, seg: Any
               ) -> tuple[CarcState, list[JSON]]:
        p = state.to_move
        if not state.cfg.tower:
            raise IllegalAction("towers are only played in the tower stage (CARC-TOWER-TILES)")
        if pos not in self.tower_sites(state):
            raise IllegalAction(f"no tower foundation or uncapped tower at {unpack(pos)} "
                                f"may take a floor now (CARC-TOWER-ACTION)")
        if not self.floors_left(state, p):
            raise IllegalAction(f"player {p} has no tower floor left (CARC-TOWER-FLOORS)")
        height = state.towers.get(pos, (0, 0))[0] + 1
        if cell != -1 and (cell, seg) not in self.in_reach(state, pos, height):
            raise IllegalAction(f"no meeple to capture at {unpack(cell)} within the reach of a "
                                f"tower {height} high (CARC-TOWER-REACH)")
        left, built = rules.floor_step(state.floors[p - 1], height - 1)
        towers = dict(state.towers)
        towers[pos] = (built, 0)
        floors = list(state.floors)
        floors[p - 1] = left
        state = state._replace(towers=towers, floors=tuple(floors))
        events: list[JSON] = [{"type": "tower-built", "rule": "CARC-TOWER-ACTION", "player": p,
                               "at": unpack(pos), "height": height}]
        if cell != -1:
            state = self.capture(state, cell, seg, events)
        return self._end_claim(state, events), events

    def _cap(self, state: CarcState, pos: Any) -> tuple[CarcState, list[JSON]]:
        p = state.to_move
        if not state.cfg.tower or pos not in self.tower_sites(state) or not state.towers.get(
                pos, (0, 0))[0]:
            raise IllegalAction("a meeple caps only a started, uncapped tower "
                                "(CARC-TOWER-ACTION)")
        if not self.has_meeple(state, p):
            raise IllegalAction(f"player {p} has no meeple left in the supply "
                                f"(CARC-MEEPLE-SUPPLY)")
        towers = dict(state.towers)
        towers[pos] = (towers[pos][0], p)
        state = state._replace(towers=towers, supply=_add(state.supply, p - 1, -1))
        events: list[JSON] = [{"type": "tower-capped", "rule": "CARC-TOWER-ACTION", "player": p,
                               "at": unpack(pos)}]
        return self._end_claim(state, events), events

    def _ransom(self, state: CarcState, captor: Any) -> tuple[CarcState, list[JSON]]:
        p, cfg = state.to_move, state.cfg
        if not cfg.tower:
            raise IllegalAction("ransoms are only played in the tower stage (CARC-TOWER-TILES)")
        if not isinstance(captor, int) or not 1 <= captor <= cfg.players or captor == p:
            raise IllegalAction(f"player {captor!r} cannot be paid a ransom by player {p}")
        why = self.ransom_allowed(state, p, captor)
        if why:
            raise IllegalAction(f"{why} (CARC-TOWER-RANSOM)")
        paid, got = self.ransom_points(state)
        scores = tuple(rules.ransom_scores(state.scores, p - 1, captor - 1, paid, got))
        prisoners = [list(row) for row in state.prisoners]
        prisoners[captor - 1][p - 1] -= 1
        state = state._replace(scores=scores, supply=_add(state.supply, p - 1, 1),
                               prisoners=tuple(tuple(row) for row in prisoners), ransomed=True)
        events: list[JSON] = [{"type": "ransom-paid", "rule": "CARC-TOWER-RANSOM", "player": p,
                               "captor": captor, "points": paid}]
        if self._limit_reached(state):
            return self._finish(state, "points-limit", events), events
        return state, events

    def _pile(self, state: CarcState) -> tuple[int, ...]:
        return state.river_pile if state.phase == RIVER_PHASE else state.deck

    def _drawable(self, state: CarcState) -> tuple[int, ...]:
        """CARC-DECK-DRAW and CARC-RIVER-LAKE-ENDS: counts the next draw chooses among."""
        pile = self._pile(state)
        if state.phase == RIVER_PHASE and state.cfg.lake_last:
            lake = state.cfg.t.lake
            if pile[lake] and sum(pile) > pile[lake]:
                return _add(pile, lake, -pile[lake])
        return pile

    def chance(self, state: CarcState) -> list[Outcome[Action]]:
        if state.step != DRAW:
            return []
        pile = self._drawable(state)
        total = sum(pile)
        return [Outcome(("draw", k), Fraction(c, total)) for k, c in enumerate(pile) if c]

    def random_chance(self, state: CarcState, rng: random.Random) -> Action:
        """Draw a chance outcome with its true probability, without listing them all."""
        pile = self._drawable(state)
        r = rng.randrange(sum(pile))
        for k, c in enumerate(pile):
            if r < c:
                return ("draw", k)
            r -= c
        raise AssertionError("unreachable: r < sum(pile)")

    def random_action(self, state: CarcState, rng: random.Random) -> Action:
        """A uniformly random legal action of the player to move, for fast random play."""
        return rng.choice(self.legal(state))

    # --- transitions ---------------------------------------------------------------------
    def apply(self, state: CarcState, action: Action) -> tuple[CarcState, list[JSON]]:
        kind = action[0] if isinstance(action, tuple) and action else None
        step = state.step
        if step == DONE:
            raise IllegalAction("the game is over")
        if step == DRAW:
            if kind != "draw" or len(action) != 2:
                raise IllegalAction(f"a tile draw (chance) is due, not {kind!r}")
            return self._draw(state, action[1])
        if kind == "ransom" and len(action) == 2 and step == (PLACE if state.cfg.ransom_before
                                                              else CLAIM):
            return self._ransom(state, action[1])
        if kind == "exchange" and len(action) == 2 and step == PLACE and state.cfg.tower \
                and not state.cfg.exchange_now:
            return self._exchange(state, action[1])
        if step == PLACE:
            if kind == "place" and len(action) == 4:
                return self._place(state, action[1], action[2], action[3])
            if kind == "discard" and len(action) == 2:
                return self._discard(state, action[1])
            raise IllegalAction(f"player {state.to_move} must place or discard a tile, "
                                f"not {kind!r}")
        if kind == "pass" and len(action) == 1:
            events: list[JSON] = [{"type": "claim-passed", "rule": "CARC-CLAIM-ONE",
                                   "player": state.to_move}]
            return self._end_claim(state, events), events
        if kind == "claim" and len(action) == 2:
            return self._claim(state, action[1])
        if kind == "tower" and len(action) == 4:
            return self._tower(state, action[1], action[2], action[3])
        if kind == "cap" and len(action) == 2:
            return self._cap(state, action[1])
        raise IllegalAction(f"player {state.to_move} must claim or pass, not {kind!r}")

    def _draw(self, state: CarcState, k: Any) -> tuple[CarcState, list[JSON]]:
        t = state.cfg.t
        pile = self._drawable(state)
        if not isinstance(k, int) or not 0 <= k < len(pile) or pile[k] <= 0:
            name = t.ids[k] if isinstance(k, int) and 0 <= k < len(t.ids) else k
            raise IllegalAction(f"tile {name!r} cannot be drawn now")
        who = state.pending[0]
        hands = list(state.hands)
        hands[who - 1] = _sorted_hand(t, [*hands[who - 1], k])
        river_phase = state.phase == RIVER_PHASE
        state = state._replace(
            hands=tuple(hands), pending=state.pending[1:],
            river_pile=_add(state.river_pile, k, -1) if river_phase else state.river_pile,
            deck=state.deck if river_phase else _add(state.deck, k, -1))
        events: list[JSON] = [{"type": "tile-drawn", "rule": "CARC-DECK-DRAW", "player": who,
                               "tile": t.ids[k], "pile": "river" if river_phase else "land"}]
        if state.pending:
            return state, events
        if state.then_next:
            return self._next_turn(state._replace(then_next=False), events), events
        return state._replace(step=PLACE), events

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None:
        """Why placing kind k at pos with rot is illegal now, or None (the referee's reasons)."""
        t = state.cfg.t
        if k not in state.hands[state.to_move - 1]:
            return f"tile {t.ids[k]} is not in player {state.to_move}'s hand"
        if rot not in (0, 1, 2, 3):
            return f"rotation {rot} is not 0-3"
        x, y = unpack(pos)
        if pos in state.board:
            return f"cell [{x}, {y}] already holds a tile"
        if pos not in state.cells:
            return f"cell [{x}, {y}] touches no placed tile (CARC-PLACE-ADJACENT)"
        if state.phase == RIVER_PHASE and pos != state.river.open_pos:
            ox, oy = unpack(state.river.open_pos)
            return (f"during the river phase the tile must continue the river at [{ox}, {oy}] "
                    f"(CARC-RIVER-CONTIGUOUS)")
        rt = t.rot[k][rot]
        for s in range(4):
            there = state.board.get(pos + DELTA[s])
            if there is None:
                continue
            theirs = t.rot[there[0]][there[1]].edges[(s + 2) % 4]
            if not self.edges_match(state, rt.edges[s], theirs):
                rule = ("CARC-RIVER-MEETS-RIVER" if RIVER_EDGE in (theirs, rt.edges[s])
                        else "CARC-PLACE-MATCH")
                return (f"the {SIDES[s]} edge ({EDGE_KINDS[rt.edges[s]]}) faces a "
                        f"{EDGE_KINDS[theirs]} edge ({rule})")
        if state.phase == RIVER_PHASE:
            why = self.river_problem(state, k, rot, pos)
            if why:
                return f"{why} (CARC-RIVER-NO-UTURN {state.cfg.uturn})"
        return None

    def edges_match(self, state: CarcState, mine: int, theirs: int) -> bool:
        """CARC-PLACE-MATCH and CARC-RIVER-MEETS-RIVER: facing edges are of one kind."""
        return mine == theirs

    def _place(self, state: CarcState, k: Any, pos: Any, rot: Any) -> tuple[CarcState, list[JSON]]:
        cfg, t = state.cfg, state.cfg.t
        if not (isinstance(k, int) and 0 <= k < len(t.ids) and isinstance(pos, int)
                and isinstance(rot, int)):
            raise IllegalAction("a placement is (kind, position, rotation) as integers")
        why = self.placement_problem(state, k, pos, rot)
        if why:
            raise IllegalAction(why)
        board, cells = dict(state.board), dict(state.cells)
        owner, feats = dict(state.owner), dict(state.feats)
        self.lay_tile(cfg, board, cells, owner, feats, pos, k, rot)
        river = state.river
        if state.phase == RIVER_PHASE:
            river = river_step(t, river, k, rot, pos)[0]
        hand = list(state.hands[state.to_move - 1])
        hand.remove(k)
        hands = list(state.hands)
        hands[state.to_move - 1] = tuple(hand)
        events: list[JSON] = [self.placed_event(state, k, pos, rot)]
        state = state._replace(board=board, cells=cells, owner=owner, feats=feats,
                               hands=tuple(hands), river=river, step=CLAIM, placed=pos,
                               blocked=frozenset())
        if not cfg.score_at_placement:
            return state, events
        # CARC-SCORE-TIMING at-placement: features holding meeples score now; so do
        # completed features off this tile (monasteries around), which nobody can claim now.
        on_tile = self._tile_features(state, pos)
        mine = set(on_tile.values())
        now: list[int] = []
        later: list[int] = []
        for fid in self._completed_by(state, pos):
            f = state.feats[fid]
            (now if self.scored_at_placement(f, fid in mine) else later).append(fid)
        blocked = frozenset(i for i, fid in on_tile.items() if fid in now)
        state = state._replace(blocked=blocked)
        state = self._score(state, now, events)
        if self._limit_reached(state):
            state = self._score(state, later, events)
            return self._finish(state, "points-limit", events), events
        return state, events

    def _tile_features(self, state: CarcState, pos: int) -> dict[int, int]:
        """Segment index -> feature id for the tile at pos."""
        kind, rot = state.board[pos]
        n = len(state.cfg.t.rot[kind][rot].segs)
        return {i: state.owner[pos * 8 + i] for i in range(n)}

    def _completed_by(self, state: CarcState, pos: int) -> list[int]:
        """Features completed by the tile at pos: its own closed features and the closed
        monasteries around it (they were open while the cell was empty)."""
        t = state.cfg.t
        out = {fid for fid in self._tile_features(state, pos).values()
               if state.feats[fid].open == 0}
        for d in AROUND:
            there = state.board.get(pos + d)
            if there is not None:
                m = t.rot[there[0]][there[1]].monastery
                if m >= 0:
                    fid = state.owner[(pos + d) * 8 + m]
                    if state.feats[fid].open == 0:
                        out.add(fid)
        return sorted(out, key=lambda fid: self._feature_key(state, fid))

    def _feature_key(self, state: CarcState, fid: int) -> tuple[int, list[list[int]]]:
        f = state.feats[fid]
        return f.kind, sorted(unpack(p) for p in f.tiles)

    def _feature_event(self, state: CarcState, f: Feat, kind: str, rule: str, points: int,
                       awards: list[int]) -> JSON:
        return {"type": kind, "rule": rule, "feature": FEATURE_NAMES[f.kind],
                "tiles": sorted(unpack(p) for p in f.tiles), "banners": f.banners,
                "meeples": list(f.meeples), "points": points,
                "scorers": [i + 1 for i, a in enumerate(awards) if a]}

    def _score(self, state: CarcState, fids: list[int], events: list[JSON]) -> CarcState:
        """Score completed features (CARC-SCORE-MAJORITY) and return their meeples."""
        if not fids:
            return state
        cfg = state.cfg
        feats, meeples = dict(state.feats), dict(state.meeples)
        scores, supply = list(state.scores), list(state.supply)
        for fid in fids:
            f = feats[fid]
            value = self.completed_points(cfg, f)
            awards = self.award_points(f.meeples, value)
            events.append(self._feature_event(state, f, "feature-completed",
                                              COMPLETE_RULE[f.kind], value, awards))
            for i, a in enumerate(awards):
                scores[i] += a
            if any(f.meeples):
                for node in f.nodes:
                    meeples.pop(node, None)
                for i, c in enumerate(f.meeples):
                    supply[i] += c
                events.append({"type": "meeples-returned", "rule": "CARC-MEEPLE-RETURN",
                               "meeples": list(f.meeples)})
                feats[fid] = f._replace(meeples=(0,) * cfg.players)
        return state._replace(feats=feats, meeples=meeples, scores=tuple(scores),
                              supply=tuple(supply))

    def _limit_reached(self, state: CarcState) -> bool:
        return any(s >= state.cfg.end_points for s in state.scores)

    def _discard(self, state: CarcState, k: Any) -> tuple[CarcState, list[JSON]]:
        t, p = state.cfg.t, state.to_move
        if not isinstance(k, int) or k not in state.hands[p - 1]:
            name = t.ids[k] if isinstance(k, int) and 0 <= k < len(t.ids) else k
            raise IllegalAction(f"tile {name!r} is not in player {p}'s hand")
        if self.any_placement(state):
            raise IllegalAction("a tile of the hand can be placed: discarding is only allowed "
                                "when none fits (CARC-HAND-NOFIT)")
        hand = list(state.hands[p - 1])
        hand.remove(k)
        hands = list(state.hands)
        hands[p - 1] = tuple(hand)
        state = state._replace(hands=tuple(hands),
                               discarded=_sorted_hand(t, [*state.discarded, k]))
        events: list[JSON] = [{"type": "tile-discarded", "rule": "CARC-HAND-NOFIT",
                               "player": p, "tile": t.ids[k]}]
        if sum(self._pile(state)):
            if state.phase == RIVER_PHASE and not state.cfg.nofit_continue:
                # a river turn is one draw and one placement (CARC-RIVER-DRAW): under end-turn
                # the discard ends it, and the next player's turn draws the next river tile
                # (a replacement drawn now would sit in a hand across turns, and could even be
                # carried into the land phase)
                return self._next_turn(state, events), events
            return state._replace(step=DRAW, pending=(p,),
                                  then_next=not state.cfg.nofit_continue), events
        if hand and state.cfg.nofit_continue:
            return state, events
        return self._next_turn(state, events), events

    def _claim(self, state: CarcState, seg: Any) -> tuple[CarcState, list[JSON]]:
        p, pos = state.to_move, state.placed
        kind, rot = state.board[pos]
        rt = state.cfg.t.rot[kind][rot]
        parts = len(rt.segs) + (len(rt.fields) if state.cfg.farms else 0)
        if not isinstance(seg, int) or not 0 <= seg < parts:
            raise IllegalAction(f"the placed tile has no feature {seg!r} to claim")
        if not self.has_meeple(state, p):
            raise IllegalAction(f"player {p} has no meeple left in the supply "
                                f"(CARC-MEEPLE-SUPPLY)")
        node = pos * 8 + seg
        fid = state.owner[node]
        f = state.feats[fid]
        name = FEATURE_NAMES[f.kind]
        if seg in state.blocked:
            raise IllegalAction(f"the {name} was completed and scored when the tile was placed: "
                                f"it counts as claimed (CARC-CLAIM-UNCLAIMED)")
        farmer = f.kind == FIELD
        if not (self.field_free(f, p) if farmer else self.feature_free(f, p)):
            holders = [i + 1 for i, c in enumerate(f.meeples) if c]
            rule = "CARC-FARM-CLAIM" if farmer else "CARC-CLAIM-UNCLAIMED"
            raise IllegalAction(f"the {name} already holds meeples of player(s) "
                                f"{holders} ({rule})")
        feats, meeples = dict(state.feats), dict(state.meeples)
        feats[fid] = f._replace(meeples=_add(f.meeples, p - 1, 1))
        meeples[node] = p
        state = state._replace(feats=feats, meeples=meeples,
                               supply=_add(state.supply, p - 1, -1))
        events: list[JSON] = [{"type": "meeple-placed",
                               "rule": "CARC-FARM-CLAIM" if farmer else "CARC-CLAIM-UNCLAIMED",
                               "player": p, "at": unpack(pos), "on": spot_of(rt, seg),
                               "feature": name}]
        return self._end_claim(state, events), events

    def _end_claim(self, state: CarcState, events: list[JSON]) -> CarcState:
        """After claim or pass: score what the tile completed and is still unscored."""
        pos = state.placed
        done = self._completed_by(state, pos)
        if state.cfg.score_at_placement:
            on_tile = set(self._tile_features(state, pos).values())
            blocked = {state.owner[pos * 8 + i] for i in state.blocked}
            done = [fid for fid in done if fid in on_tile and fid not in blocked]
        state = self._score(state._replace(placed=-1, blocked=frozenset()), done, events)
        if self._limit_reached(state):
            return self._finish(state, "points-limit", events)
        return self._next_turn(state, events)

    # --- turns ---------------------------------------------------------------------------
    def _next_turn(self, state: CarcState, events: list[JSON]) -> CarcState:
        nxt = state.to_move % state.cfg.players + 1
        if state.phase == RIVER_PHASE and (state.river.open_pos < 0
                                           or not sum(state.river_pile)):
            return self._end_river(state, events)
        return self._start_turn(state, nxt, events)

    def _start_turn(self, state: CarcState, player: int, events: list[JSON]) -> CarcState:
        cfg = state.cfg
        state = state._replace(ransomed=False)  # CARC-TOWER-RANSOM: once per turn
        if state.phase == RIVER_PHASE:  # CARC-RIVER-DRAW
            return state._replace(step=DRAW, to_move=player, pending=(player,), then_next=False)
        for _ in range(cfg.players):
            hand = state.hands[player - 1]
            n = min(cfg.draw_per_turn, cfg.hand_max - len(hand), sum(state.deck))
            if n > 0:
                return state._replace(step=DRAW, to_move=player, pending=(player,) * n,
                                      then_next=False)
            if hand:
                return state._replace(step=PLACE, to_move=player, pending=())
            if not sum(state.deck) and not any(state.hands):
                break
            events.append({"type": "turn-skipped", "rule": "CARC-END-TILES", "player": player})
            player = player % cfg.players + 1
        return self._finish(state._replace(to_move=player), "tiles-exhausted", events)

    def _end_river(self, state: CarcState, events: list[JSON]) -> CarcState:
        """CARC-RIVER-LAKE-ENDS, then the opening deal (CARC-HAND-DEAL)."""
        cfg, t = state.cfg, state.cfg.t
        removed = [k for k, c in enumerate(state.river_pile) for _ in range(c)]
        events.append({"type": "river-phase-ended", "rule": "CARC-RIVER-LAKE-ENDS",
                       "removed": sorted(t.ids[k] for k in removed)})
        state = state._replace(
            phase=LAND_PHASE, river_pile=(0,) * len(state.river_pile),
            discarded=_sorted_hand(t, [*state.discarded, *removed]))
        first = state.to_move % cfg.players + 1 if cfg.land_continue else 1
        left = sum(state.deck)
        pending: list[int] = []
        sizes = [len(h) for h in state.hands]
        for p in range(1, cfg.players + 1):
            n = min(cfg.opening_deal, cfg.hand_max - sizes[p - 1], left)
            pending += [p] * n
            sizes[p - 1] += n
            left -= n
        n = min(cfg.draw_per_turn, cfg.hand_max - sizes[first - 1], left)
        pending += [first] * n
        if not pending:
            return self._start_turn(state, first, events)
        return state._replace(step=DRAW, to_move=first, pending=tuple(pending), then_next=False)

    # --- the end -------------------------------------------------------------------------
    def _finish(self, state: CarcState, reason: str, events: list[JSON]) -> CarcState:
        """CARC-SCORE-INCOMPLETE for every feature still holding meeples, then CARC-WINNER."""
        cfg = state.cfg
        scores, supply = list(state.scores), list(state.supply)
        held = [fid for fid, f in state.feats.items() if any(f.meeples) and f.kind != FIELD]
        held.sort(key=lambda fid: self._feature_key(state, fid))
        farms = [fid for fid, f in state.feats.items() if any(f.meeples) and f.kind == FIELD]
        farms.sort(key=lambda fid: self._feature_key(state, fid))
        feats = dict(state.feats)
        for fid in held:
            f = feats[fid]
            value = self.final_points(cfg, f)
            awards = self.award_points(f.meeples, value)
            events.append(self._feature_event(state, f, "feature-final", "CARC-SCORE-INCOMPLETE",
                                              value, awards))
            for i, a in enumerate(awards):
                scores[i] += a
                supply[i] += f.meeples[i]
            events.append({"type": "meeples-returned", "rule": "CARC-MEEPLE-RETURN",
                           "meeples": list(f.meeples)})
            feats[fid] = f._replace(meeples=(0,) * cfg.players)
        for fid in farms:  # CARC-FARM-SCORE, after the incomplete features
            f = feats[fid]
            towns = [feats[c] for c in field_towns(cfg.t, state.board, state.owner, f)]
            value = self.farm_points(cfg, towns)
            awards = self.farm_award(f.meeples, value)
            events.append({"type": "farm-scored", "rule": "CARC-FARM-SCORE", "feature": "field",
                           "tiles": sorted(unpack(p) for p in f.tiles),
                           "towns": sorted(sorted(unpack(p) for p in town.tiles)
                                           for town in towns if town.open == 0),
                           "meeples": list(f.meeples), "points": value,
                           "scorers": [i + 1 for i, a in enumerate(awards) if a]})
            for i, a in enumerate(awards):
                scores[i] += a
                supply[i] += f.meeples[i]
            events.append({"type": "meeples-returned", "rule": "CARC-FARM-STAYS",
                           "meeples": list(f.meeples)})
            feats[fid] = f._replace(meeples=(0,) * cfg.players)
        winners = self.winners(cfg, scores)
        result = {"reason": reason, "scores": scores, "winners": winners}
        events.append({"type": "game-ended",
                       "rule": "CARC-END-POINTS" if reason == "points-limit" else "CARC-END-TILES",
                       "reason": reason, "scores": scores})
        events.append({"type": "game-won", "rule": "CARC-WINNER", "winners": winners,
                       "scores": scores})
        return state._replace(phase=OVER, step=DONE, to_move=0, pending=(), placed=-1,
                              blocked=frozenset(), feats=feats, meeples={},
                              scores=tuple(scores), supply=tuple(supply), result=result)

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
