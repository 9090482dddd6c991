"""Plays N moves (default 3), then starts a grandchild that keeps the engine's stdout and
stderr open (`sleep 1000`), says why it is dying on stderr and exits (code 4): the pipe
never closes, but the engine is gone. That is a crash, with its stderr, not a hang."""

from __future__ import annotations

import os
import subprocess
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
            child = subprocess.Popen(["sleep", "1000"], stdin=subprocess.DEVNULL)
            pid_file = os.environ.get("HOSTILE_PID_FILE")
            if pid_file:
                with open(pid_file, "a") as f:
                    f.write(f"{child.pid}\n")
            sys.stderr.write("crash_holding_stdout: out of memory (pretend)\n")
            sys.stderr.flush()
            os._exit(4)

    serve(game, hook)


if __name__ == "__main__":
    main()
