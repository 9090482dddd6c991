"""Breaks the game at random: each move, with probability 1/4 (from the system's
randomness, not the seed), reports one more turn than the reference."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import game_and_n, serve


def main() -> None:
    game, _ = game_and_n(0)
    rng = random.SystemRandom()

    def hook(_: int, request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any] | None:
        state = reply.get("state")
        if request.get("op") == "apply" and isinstance(state, dict) and rng.random() < 0.25:
            return {**reply, "state": {**state, "turn": int(state.get("turn", 0)) + 1}}
        return None

    serve(game, hook)


if __name__ == "__main__":
    main()
