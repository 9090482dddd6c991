#!/usr/bin/env python3
"""A debug print into the protocol: on the 6th reply a log line goes down the pipe first.
Expected: CARC-PROTO-FRAME, verdict 'ban'."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, Msg, main


class Chatty(Bot):
    def frame(self, reply: Msg) -> str:
        note = f"debug: hand {sorted(self.hand)}\n" if self.queries == 6 else ""
        return note + super().frame(reply)


main(Chatty())
