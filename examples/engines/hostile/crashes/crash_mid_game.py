"""Plays N moves (default 3), then dies (exit 3) on the next one."""

from __future__ import annotations

import os
import sys
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
            sys.stderr.write("crash_mid_game: segmentation fault (pretend)\n")
            sys.stderr.flush()
            os._exit(3)

    serve(game, hook)


if __name__ == "__main__":
    main()
