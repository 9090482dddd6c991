"""The loop every hostile engine shares: the reference over the wire, with a hook that may
replace, delay or withhold any reply.

A hook gets the request number (counting from 1 over the life of the process), the request
and the reference's reply; it returns the reply to send (a dict), raw text to write as is
(a str), or None to send the reference's reply. It may also sleep or exit.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from gamecert.fuzz.engines.server import handle
from gamecert.reference_engine import reference_session

Hook = Callable[[int, dict[str, Any], dict[str, Any]], "dict[str, Any] | str | None"]


def game_and_n(default_n: int) -> tuple[str, int]:
    """GAME [N] from the command line."""
    game = sys.argv[1] if len(sys.argv) > 1 else "flit"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else default_n
    return game, n


def serve(game: str, hook: Hook | None = None, *, stateless: bool = True) -> None:
    """Serve the reference for `game`; `stateless` False drops that hello capability (the
    engine admits it remembers things between games)."""
    session = reference_session(game)
    count = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        count += 1
        request = json.loads(line)
        reply, stop = handle(session, request)
        if request.get("op") == "hello" and not stateless:
            reply["capabilities"] = [c for c in reply.get("capabilities", [])
                                     if c != "stateless"]
        out = hook(count, request, reply) if hook else None
        if out is None:
            out = reply
        text = out if isinstance(out, str) else json.dumps(out, separators=(",", ":")) + "\n"
        sys.stdout.write(text)
        sys.stdout.flush()
        if stop:
            return


def applies() -> Callable[[dict[str, Any]], int]:
    """A counter of `apply` requests seen so far."""
    seen = [0]

    def count(request: dict[str, Any]) -> int:
        if request.get("op") == "apply":
            seen[0] += 1
        return seen[0]

    return count
