"""What-if for the case study: the same adapter with the engine's unused river tile
(`river_diagonal_city`, our R7) given its count of 1, so games get past finding 1 (a river of
11 tiles) and the campaign can look at everything after it. Diagnostic only: this is not the
engine as published. (Their R7 is also drawn with wrong fields, finding 5: claims on it differ.)

    PYTHONHASHSEED=0 gamecert certify carcassonne --profile classic-farms-2p \
        --engine examples/adapters/wingedsheep_carcassonne/whatif_full_river.py:FullRiver
"""

from __future__ import annotations

from typing import ClassVar

from adapter import Wingedsheep  # the adapter beside this file


class FullRiver(Wingedsheep):
    engine: ClassVar[str] = "wingedsheep/carcassonne (what-if: river with R7)"

    def __init__(self) -> None:
        super().__init__()
        from wingedsheep.carcassonne.tile_sets import the_river_deck  # type: ignore[import-not-found]

        the_river_deck.the_river_tile_counts["river_diagonal_city"] = 1
