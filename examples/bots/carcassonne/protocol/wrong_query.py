#!/usr/bin/env python3
"""Replies to the wrong query type: its 5th reply is a meeple pass, whatever was asked.
Expected: CARC-PROTO-REPLY, verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, Msg, main


class WrongQuery(Bot):
    def place(self) -> Msg:
        return self.pass_() if self.queries == 5 else super().place()

    def claim(self) -> Msg:
        return self.pass_()


main(WrongQuery())
