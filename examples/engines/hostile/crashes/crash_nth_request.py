"""Dies on the Nth request of its process (default 150, more than one game): a
crash that depends on the process's history. It does not claim to be stateless."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import game_and_n, serve


def main() -> None:
    game, n = game_and_n(150)

    def hook(number: int, request: dict[str, Any], reply: dict[str, Any]) -> None:
        if number >= n:
            sys.stderr.write(f"crash_nth_request: out of handles at request {number}\n")
            sys.stderr.flush()
            os._exit(4)

    serve(game, hook, stateless=False)


if __name__ == "__main__":
    main()
