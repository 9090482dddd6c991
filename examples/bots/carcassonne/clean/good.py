#!/usr/bin/env python3
"""A correct SYNCS 2025 Carcassonne bot: named pipes in the documented order, exact frames,
legal placements (river U-turns avoided, discards when nothing fits), claims only on fresh
monasteries. Debug prints go to stdout, which is not the protocol. Expected: clean."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from syncsbot import Bot, main


class Good(Bot):
    def before_reply(self) -> None:
        print(f"query {self.queries}: hand {sorted(self.hand)}", flush=True)  # harmless


main(Good())
