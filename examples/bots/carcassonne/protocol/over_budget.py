#!/usr/bin/env python3
"""Over the cumulative budget late in the game: from the 20th query on, every reply takes
350 ms; each is in time, but the game's total passes the budget. Meant for a run with
--time-scale 0.25 (limits 500 ms a reply, 2000 ms a game), so it is quick to show.
Expected: CARC-PROTO-LIMITS (game-budget), verdict 'ban'."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, main


class OverBudget(Bot):
    def before_reply(self) -> None:
        if self.queries >= 20:
            time.sleep(0.35)


main(OverBudget())
