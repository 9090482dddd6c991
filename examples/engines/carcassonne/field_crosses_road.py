"""Mutant: On the tile just placed, the fields on the two sides of a road edge are one field.
Breaks CARC-FARM-FIELDS (farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne import Carcassonne, CarcConfig
from gamecert.reference_engine.carcassonne.engine import ROAD, Feat

RULE = "CARC-FARM-FIELDS"
PROFILE = "syncs-2025-farms"


class Mutant(Carcassonne):
    """On the tile just placed, the fields on the two sides of a road edge are one field."""

    def lay_tile(self, cfg: CarcConfig, board: dict[int, tuple[int, int]],
                 cells: dict[int, tuple[int, int]], owner: dict[int, int],
                 feats: dict[int, Feat], pos: int, k: int, rot: int) -> None:
        super().lay_tile(cfg, board, cells, owner, feats, pos, k, rot)
        rt = cfg.t.rot[k][rot]
        if not cfg.farms:
            return
        for s in range(4):
            a, b = rt.half_field[2 * s], rt.half_field[2 * s + 1]
            if rt.side_seg[s] >= 0 and rt.segs[rt.side_seg[s]].kind == ROAD and a >= 0 and b >= 0:
                first = len(rt.segs)
                fa, fb = owner[pos * 8 + first + a], owner[pos * 8 + first + b]
                if fa != fb:
                    self.join_features(owner, feats, fa, fb)


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-field_crosses_road")
