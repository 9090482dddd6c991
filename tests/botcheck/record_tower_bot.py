"""The correct tower-stage bot, also writing every query it receives and every reply it
sends (one JSON per line, {"query": ...} or {"reply": ...}) to the file named by $RECORD."""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "bots" / "carcassonne"))

from syncsbot import Msg, main
from towerbot import TowerBot, placed_reading


class Recorder(TowerBot):
    def run_query(self, msg: Msg) -> Msg:
        reply = super().run_query(msg)
        with open(os.environ["RECORD"], "a", encoding="utf-8") as f:
            f.write(json.dumps({"query": msg}) + "\n" + json.dumps({"reply": reply}) + "\n")
        return reply


main(Recorder(placed_reading()))
