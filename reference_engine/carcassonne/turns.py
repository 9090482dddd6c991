"""The course of a Carcassonne game: its start (`initial`), who acts (`current`), scoring
what a tile completed (CARC-SCORE-MAJORITY), passing the turn (the river's end and the
opening deal with it) and the end of the game (incomplete features, farms, the winners).

`CarcTurns` builds on the legal moves (`moves.py`) and the rule hooks; the steps
(`steps.py`) call it. It reads no action and checks none.
"""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.moves import CarcMoves
from gamecert.reference_engine.carcassonne.state import (
    AROUND,
    COMPLETE_RULE,
    DELTA,
    DONE,
    DRAW,
    FEATURE_NAMES,
    FIELD,
    JSON,
    LAND_PHASE,
    OVER,
    PLACE,
    RIVER_PHASE,
    STRAIGHT,
    CarcConfig,
    CarcState,
    Feat,
    River,
    _sorted_hand,
    field_towns,
    lay,
    pack,
    unpack,
)
from gamecert.reference_engine.contract import CHANCE, TERMINAL
from gamecert.spec import Profile


class CarcTurns(CarcMoves):
    """Start, scoring, turns and the end (see the module docstring)."""

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

    # --- scoring -------------------------------------------------------------------------
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
