"""Its hello says it plays chess; it plays the reference's game otherwise."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import game_and_n, serve


def main() -> None:
    game, _ = game_and_n(0)

    def hook(_: int, request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any] | None:
        return {**reply, "game": "chess"} if request.get("op") == "hello" else None

    serve(game, hook)


if __name__ == "__main__":
    main()
