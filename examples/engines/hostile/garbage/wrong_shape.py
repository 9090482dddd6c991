"""After N moves (default 3) answers apply with ok:true but no events, and a state
that is a list."""

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

    def hook(_: int, request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any] | None:
        if count(request) > n:
            return {"id": request.get("id"), "ok": True, "state": [1, 2, 3]}
        return None

    serve(game, hook)


if __name__ == "__main__":
    main()
