"""After N moves (default 3) answers apply with a state nested 200,000 lists deep
(`[[[...]]]`): valid JSON that no reader can take apart by recursion."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import applies, game_and_n, serve

DEPTH = 200_000


def main() -> None:
    game, n = game_and_n(3)
    count = applies()

    def hook(_: int, request: dict[str, Any], reply: dict[str, Any]) -> str | None:
        if count(request) > n:
            deep = "[" * DEPTH + "]" * DEPTH
            return f'{{"id":{request.get("id")},"ok":true,"state":{deep},"events":[]}}\n'
        return None

    serve(game, hook)


if __name__ == "__main__":
    main()
