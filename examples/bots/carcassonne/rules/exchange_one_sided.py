#!/usr/bin/env python3
"""An exchange nobody owes: under CARC-TOWER-EXCHANGE = on-request (run with --placed, profile
syncs-2025-tower-placed) the bot asks to exchange prisoners with every player whose meeple
it holds, without checking that that player holds one of its own. Expected:
CARC-TOWER-EXCHANGE, verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Msg, main
from towerbot import TowerBot, placed_reading


class ExchangeOneSided(TowerBot):
    def exchange(self) -> Msg | None:
        for (captor, owner), n in sorted(self.prison.items()):
            if captor == self.me and n > 0:
                return {"event_type": "move_exchange_prisoners", "player_id": self.me,
                        "other_id": owner}
        return None


main(ExchangeOneSided(placed_reading()))
