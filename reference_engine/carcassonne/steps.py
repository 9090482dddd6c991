"""One step of a Carcassonne game: `apply` checks an action against the rules and plays it
(a draw, a placement and what it scores at once, a discard, a claim or a pass, and The
Tower's floor, cap, ransom and exchange), raising `IllegalAction` with the rule's id for a
move the rules refuse.

`CarcSteps` builds on the course of the game (`turns.py`) and below it. It knows actions
only as internal tuples: their JSON forms, the canonical state and the referee are
`engine.py`'s.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import rules
from gamecert.reference_engine.carcassonne.state import (
    CLAIM,
    DONE,
    DRAW,
    FEATURE_NAMES,
    FIELD,
    JSON,
    PLACE,
    RIVER_PHASE,
    TOWER_CAP,
    Action,
    CarcState,
    _add,
    _sorted_hand,
    river_step,
    spot_of,
    unpack,
)
from gamecert.reference_engine.carcassonne.turns import CarcTurns
from gamecert.reference_engine.contract import IllegalAction


class CarcSteps(CarcTurns):
    """The transitions: `apply` and the step of each action kind."""

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

    # --- The Tower -----------------------------------------------------------------------
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
