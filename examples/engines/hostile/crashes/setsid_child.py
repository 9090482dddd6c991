"""Plays correctly, but first starts a grandchild in a session of its own
(`setsid sleep 1000`) and writes its pid to $HOSTILE_PID_FILE. gamecert must leave
nothing running."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))

from examples.engines.hostile.base import game_and_n, serve


def main() -> None:
    game, _ = game_and_n(0)
    child = subprocess.Popen(["setsid", "sleep", "1000"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pid_file = os.environ.get("HOSTILE_PID_FILE")
    if pid_file:
        with open(pid_file, "a") as f:
            f.write(f"{child.pid}\n")
    serve(game)


if __name__ == "__main__":
    main()
