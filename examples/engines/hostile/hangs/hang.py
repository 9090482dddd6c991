"""Plays N moves (default 3), then stops answering (and keeps reading)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import applies, game_and_n, serve


def main() -> None:
    game, n = game_and_n(3)
    count = applies()

    def hook(_: int, request: dict[str, Any], reply: dict[str, Any]) -> None:
        if count(request) > n:
            time.sleep(3600)

    serve(game, hook)


if __name__ == "__main__":
    main()
