#!/usr/bin/env python3
"""An illegal move only in a rare position: the bot claims the city of every tile it places
without checking whether that city, as joined to the board, already holds a meeple (or was
completed, and so scored, by the tile). Expected: CARC-CLAIM-UNCLAIMED, verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import SIDE_NAMES, Bot, Msg, edges, main


class ClaimsCity(Bot):
    def claim(self) -> Msg:
        p = self.placed
        if p and self.meeples > 0:
            mine = edges(p["tile_type"], p["rotation"])
            if "C" in mine:
                return {"event_type": "move_place_meeple", "player_id": self.me, "tile": p,
                        "placed_on": SIDE_NAMES[mine.index("C")]}
        return self.pass_()


main(ClaimsCity())
