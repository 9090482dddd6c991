"""Mutant: A road that closes into a loop is never completed. Breaks CARC-ROAD-COMPLETE."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne
from gamecert.reference_engine.carcassonne.engine import ROAD, Feat, _join

RULE = "CARC-ROAD-COMPLETE"


class Mutant(Carcassonne):
    """A road that closes into a loop is never completed."""

    @staticmethod
    def join_features(owner: dict[int, int], feats: dict[int, Feat], a: int, b: int) -> None:
        if a == b and feats[a].kind == ROAD:
            return  # the edge closes the loop, but its two open ends are never counted off
        _join(owner, feats, a, b)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-road_loop_open")
