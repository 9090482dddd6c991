"""Mutant: When a placed tile's town joins a town on the board, only the board town's banners
are kept. Breaks CARC-FEATURE-JOIN."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne
from gamecert.reference_engine.carcassonne.engine import Feat, _join

RULE = "CARC-FEATURE-JOIN"


class Mutant(Carcassonne):
    """When a placed tile's town joins a town on the board, only the board town's banners are
    kept."""

    @staticmethod
    def join_features(owner: dict[int, int], feats: dict[int, Feat], a: int, b: int) -> None:
        # `a` holds the new tile's part, `b` the neighbour's across the matched edge
        kept = feats[b].banners
        _join(owner, feats, a, b)
        if a != b:
            fid = owner[a]
            feats[fid] = feats[fid]._replace(banners=kept)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-banners_lost_in_join")
