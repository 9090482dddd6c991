"""Buggy on every other start: a launch counter in $HOSTILE_STATE_FILE decides whether this
process reports one turn too many after its Nth move (default 3). Not deterministic for a
given seed: the same trace shows a finding on one fresh process and not on the next."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import applies, game_and_n, serve


def launches() -> int:
    """This process's launch number (1, 2, ...), counted in the state file."""
    state = Path(os.environ.get("HOSTILE_STATE_FILE", os.devnull))
    if str(state) == os.devnull:
        return 1
    count = int(state.read_text() or 0) + 1 if state.exists() else 1
    state.write_text(str(count))
    return count


def main() -> None:
    game, n = game_and_n(3)
    buggy = launches() % 2 == 1
    count = applies()

    def hook(_: int, request: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any] | None:
        state = reply.get("state")
        if buggy and count(request) > n and isinstance(state, dict):
            return {**reply, "state": {**state, "turn": int(state.get("turn", 0)) + 1}}
        return None

    serve(game, hook)


if __name__ == "__main__":
    main()
