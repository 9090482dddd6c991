"""Answers a few requests (every Nth, default 150th) in 0.8 s: just under a 1 s limit."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import game_and_n, serve


def main() -> None:
    game, n = game_and_n(150)

    def hook(number: int, request: dict[str, Any], reply: dict[str, Any]) -> None:
        if number % n == 0:
            time.sleep(0.8)

    serve(game, hook)


if __name__ == "__main__":
    main()
