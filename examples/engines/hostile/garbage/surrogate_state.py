"""Plays the reference, but every state it sends carries an extra key holding a
right-to-left override (U+202E) whose value is a lone surrogate ("\\ud800"): JSON allows
both, no UTF-8 file or terminal can hold the second, and the first turns text around on a
terminal. (Its states differ from the reference's: a divergence, which the report must
show without breaking.)"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import game_and_n, serve

KEY = "note\u202egnp.exe"
VALUE = "\ud800 bad \udfff"


def main() -> None:
    game, _ = game_and_n(0)

    def hook(_: int, request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any] | None:
        state = reply.get("state")
        if isinstance(state, dict):
            return {**reply, "state": {**state, KEY: VALUE}}
        return None

    serve(game, hook)


if __name__ == "__main__":
    main()
