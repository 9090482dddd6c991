"""What may be played now in Carcassonne: the placements of a hand (the river's open end in
the river phase), why one placement is refused (the referee's reasons), the claims on the
tile just placed, The Tower's floors, caps, ransoms and exchanges, and the chance of the
next draw.

`CarcMoves` builds on the rule hooks (`hooks.py`) and lists and explains only: it never
changes a state (`steps.py` does).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from gamecert.reference_engine.carcassonne.hooks import CarcHooks
from gamecert.reference_engine.carcassonne.state import (
    CLAIM,
    DELTA,
    DRAW,
    PASS,
    PLACE,
    RIVER_EDGE,
    RIVER_PHASE,
    TOWER_CAP,
    Action,
    CarcState,
    _add,
    unpack,
)
from gamecert.reference_engine.carcassonne.tiles import EDGE_KINDS, SIDES
from gamecert.reference_engine.contract import Outcome


class CarcMoves(CarcHooks):
    """Legal moves, the referee's reasons and chance (see the module docstring)."""

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

    def ransoms(self, state: CarcState) -> list[Action]:
        p = state.to_move
        return [("ransom", c) for c in range(1, state.cfg.players + 1)
                if c != p and self.ransom_allowed(state, p, c) is None]

    def exchanges(self, state: CarcState) -> list[Action]:
        """CARC-TOWER-EXCHANGE on-request: the players the mover may swap prisoners with."""
        p = state.to_move
        return [("exchange", q) for q in range(1, state.cfg.players + 1)
                if q != p and state.prisoners[p - 1][q - 1] and state.prisoners[q - 1][p - 1]]

    # --- chance --------------------------------------------------------------------------
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
