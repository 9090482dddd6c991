#!/usr/bin/env python3
"""Slow on one query: the 3rd reply takes 2.3 s (limit 2 s). Expected: CARC-PROTO-LIMITS,
verdict 'ban'."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, main


class Slow(Bot):
    def before_reply(self) -> None:
        if self.queries == 3:
            time.sleep(2.3)


main(Slow())
