"""Answers its Nth request (default 20th) in 1.5 s: just over a 1 s limit."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import game_and_n, serve


def main() -> None:
    game, n = game_and_n(20)

    def hook(number: int, request: dict[str, Any], reply: dict[str, Any]) -> None:
        if number == n:
            time.sleep(1.5)

    serve(game, hook)


if __name__ == "__main__":
    main()
