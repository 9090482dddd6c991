"""Plays correctly while writing 64 KB to stderr for every request (a chatty log)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import game_and_n, serve


def main() -> None:
    game, _ = game_and_n(0)
    noise = "debug: " + "." * 65529 + "\n"

    def hook(number: int, request: dict[str, Any], reply: dict[str, Any]) -> None:
        sys.stderr.write(noise)
        sys.stderr.flush()

    serve(game, hook)


if __name__ == "__main__":
    main()
