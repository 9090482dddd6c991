"""After N moves (default 3) answers with one 100 MB line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import applies, game_and_n, serve


def main() -> None:
    game, n = game_and_n(3)
    count = applies()

    def hook(_: int, request: dict[str, Any], reply: dict[str, Any]) -> str | None:
        if count(request) <= n:
            return None
        chunk = "x" * (1 << 20)
        try:
            for _ in range(100):
                sys.stdout.write(chunk)
            sys.stdout.write("\n")
        except BrokenPipeError:  # gamecert stopped reading, as it should
            sys.exit(0)
        return ""

    serve(game, hook)


if __name__ == "__main__":
    main()
