#!/usr/bin/env python3
"""Opens its pipes in the wrong order (from_engine.pipe first), which deadlocks against the
engine until the open time-out. Expected: CARC-PROTO-LIMITS (pipes), verdict 'ban'."""

import sys
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, main


class Reversed(Bot):
    def connect(self) -> tuple[TextIO, TextIO]:
        inp = open("io/from_engine.pipe", encoding="utf-8")  # noqa: SIM115
        out = open("io/to_engine.pipe", "w", encoding="utf-8")  # noqa: SIM115
        return inp, out


main(Reversed())
