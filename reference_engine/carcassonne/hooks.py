"""The Carcassonne reference engine's rule hooks: each rule decision the engine makes in more
than one place, or deep inside a long step, as one small method.

`CarcHooks` is the bottom of the engine's chain of classes (`hooks.py`, `moves.py`,
`turns.py`, `steps.py`, then `engine.py`'s `Carcassonne`, each building on the one before):
the one place to read a decision, and the one method a mutant engine
(examples/engines/carcassonne) or a departure model (`departures/`) overrides to break that
rule alone. The hooks `gamecert prove` runs on z3 terms (`award_points`, `farm_award`,
`exchange`) use operators only. Nothing here plays a step or lists moves.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import rules
from gamecert.reference_engine.carcassonne.state import (
    DELTA,
    FEATURE_NAMES,
    JSON,
    RIVER_PHASE,
    CarcConfig,
    CarcState,
    Feat,
    _join,
    lay,
    unpack,
    uturn_problem,
)


class CarcHooks:
    """The rule hooks of the Carcassonne reference engine (see the module docstring)."""

    def award_points(self, counts: Any, points: Any, max2: rules.Max2 = max,
                     ite: rules.Ite = rules.py_ite) -> list[Any]:
        """CARC-SCORE-MAJORITY as the engine scores it; runs on z3 terms for the proof."""
        return rules.award(counts, points, max2, ite)

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

    def edges_match(self, state: CarcState, mine: int, theirs: int) -> bool:
        """CARC-PLACE-MATCH and CARC-RIVER-MEETS-RIVER: facing edges are of one kind."""
        return mine == theirs

    def floors_left(self, state: CarcState, player: int) -> bool:
        """CARC-TOWER-FLOORS: whether `player` has a floor to place."""
        return state.floors[player - 1] > 0

    def reach_cells(self, state: CarcState, pos: int, height: int) -> list[int]:
        """CARC-TOWER-REACH: the cells a tower of `height` at `pos` reaches: its own and up to
        `height` steps along the four straight lines, over empty cells and other towers."""
        return [pos] + [pos + k * d for d in DELTA for k in range(1, height + 1)]

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
