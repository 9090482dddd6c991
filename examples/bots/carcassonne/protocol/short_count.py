#!/usr/bin/env python3
"""A frame of the wrong length: on the 4th reply the count is one short of the JSON text.
Expected: CARC-PROTO-FRAME, verdict 'ban'."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, Msg, main


class ShortCount(Bot):
    def frame(self, reply: Msg) -> str:
        text = json.dumps(reply)
        return f"{len(text) - (self.queries == 4)},{text}"


main(ShortCount())
