#!/usr/bin/env python3
"""A ransom beyond the limit: whenever a meeple of its own is in prison, the bot pays to buy
it back, without checking that it holds the ransom (3 points) or that it has not paid one
this turn already. Expected (tower stage): CARC-TOWER-RANSOM, verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Msg, main
from towerbot import TowerBot, placed_reading


class RansomBroke(TowerBot):
    def ransom(self) -> Msg | None:
        for (captor, owner), n in sorted(self.prison.items()):
            if owner == self.me and n > 0:
                return {"event_type": "move_pay_ransom", "player_id": self.me,
                        "captor_id": captor}
        return None


main(RansomBroke(placed_reading()))
