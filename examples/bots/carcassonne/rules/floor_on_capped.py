#!/usr/bin/env python3
"""A tower floor where none may go: the bot adds floors to the highest tower it has seen,
without checking whether a meeple caps it (a capped tower takes no floor until a capture
reopens it). Expected (tower stage): CARC-TOWER-ACTION, verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Msg, main
from towerbot import TowerBot, placed_reading


class FloorOnCapped(TowerBot):
    def tower_action(self, p: Msg) -> Msg | None:
        if self.floors > 0 and self.towers:
            pos = max(self.towers, key=lambda at: (self.towers[at][0], at))
            return {"event_type": "move_tower_floor", "player_id": self.me,
                    "tower_pos": list(pos), "capture": None}
        return super().tower_action(p)


main(FloorOnCapped(placed_reading()))
