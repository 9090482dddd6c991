#!/usr/bin/env python3
"""A crash mid-game: an exception before the 12th reply, so its pipes break.
Expected: CARC-PROTO-LIMITS (broken pipe), verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, main


class Crash(Bot):
    def before_reply(self) -> None:
        if self.queries == 12:
            raise KeyError("tile_type")


main(Crash())
