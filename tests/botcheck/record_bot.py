"""A correct SYNCS bot that also writes every message it receives (one JSON per line) to the
file named by $RECORD: the test's view of exactly what crossed the pipe."""

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "bots" / "carcassonne"))

from syncsbot import Bot, Msg, main


class Recorder(Bot):
    def see(self, e: Msg) -> None:
        with open(os.environ["RECORD"], "a", encoding="utf-8") as f:
            f.write(json.dumps(e) + "\n")
        super().see(e)


main(Recorder())
