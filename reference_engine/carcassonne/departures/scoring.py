"""Departure models: Scoring: completed features, majorities, timing and the final scoring.

Each class changes one rule decision of the reference engine (one hook or one piece of
logic), so a state the class gives and the reference does not names that rule
(`fuzz.step.blame`). The public mutants in examples/engines/carcassonne import them from here.
This module must not import the harness.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig, rules
from gamecert.reference_engine.carcassonne.engine import CITY, MONASTERY, ROAD, Feat, _join


class TieLowestId(Carcassonne):
    """When players tie for the most meeples on a feature, only the lowest player id scores."""

    def award_points(self, counts: Any, points: Any, max2: rules.Max2 = max,
                     ite: rules.Ite = rules.py_ite) -> list[Any]:
        # operators only, like the reference, so `gamecert prove` can run it on z3 terms
        top = rules.top_count(counts, max2)
        out, taken = [], False
        for c in counts:
            out.append(ite(c >= top, ite(c > 0, ite(taken, 0, points), 0), 0))
            taken = ite(c >= top, ite(c > 0, True, taken), taken)
        return out


class BannersIgnoredAtEnd(Carcassonne):
    """Banners of towns left open at the end are not counted."""

    def final_points(self, cfg: CarcConfig, f: Feat) -> int:
        return super().final_points(cfg, f._replace(banners=0))


class IncompleteMonastery9(Carcassonne):
    """A monastery left open at the end scores 9, as if it were complete."""

    def final_points(self, cfg: CarcConfig, f: Feat) -> int:
        return 9 if f.kind == MONASTERY else super().final_points(cfg, f)


class RoadLoopOpen(Carcassonne):
    """A road that closes into a loop is never completed."""

    @staticmethod
    def join_features(owner: dict[int, int], feats: dict[int, Feat], a: int, b: int) -> None:
        if a == b and feats[a].kind == ROAD:
            return  # the edge closes the loop, but its two open ends are never counted off
        _join(owner, feats, a, b)


class TownIncompleteRate(Carcassonne):
    """A completed town scores like an open one: 1 per tile and per banner."""

    def completed_points(self, cfg: CarcConfig, f: Feat) -> int:
        if f.kind == CITY:
            return len(f.tiles) * cfg.inc_town + f.banners * cfg.inc_banner
        return super().completed_points(cfg, f)


class Monastery8(Carcassonne):
    """A completed monastery scores 8 (its neighbours only), not 9."""

    def completed_points(self, cfg: CarcConfig, f: Feat) -> int:
        return 8 if f.kind == MONASTERY else super().completed_points(cfg, f)


class ScoreBeforeClaim(Carcassonne):
    """Features the tile completes score at the placement even when nobody holds them, so they
    can no longer be claimed."""

    def scored_at_placement(self, f: Feat, on_tile: bool) -> bool:
        return True
