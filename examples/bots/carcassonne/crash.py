#!/usr/bin/env python3
"""A crash mid-game: an exception before the 12th reply, so its pipes break.
Expected: CARC-PROTO-LIMITS (broken pipe), verdict 'ban'."""

from syncsbot import Bot, main


class Crash(Bot):
    def before_reply(self) -> None:
        if self.queries == 12:
            raise KeyError("tile_type")


main(Crash())
