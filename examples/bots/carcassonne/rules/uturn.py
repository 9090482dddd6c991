#!/usr/bin/env python3
"""An illegal river placement only in a rare position: the bot forgets the U-turn rule, so
when the river tile it holds can only be laid curving the same way as the curve just before
it, it lays it anyway. Expected: CARC-RIVER-NO-UTURN, verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, main


class UTurn(Bot):
    def river_ok(self, tile: str, pos: tuple[int, int], rotation: int) -> bool:
        return pos == self.river_open


main(UTurn())
