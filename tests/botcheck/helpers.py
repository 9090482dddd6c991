"""Running example bots through bot-check in-process (the runner) and as the command."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from examples.bots import path_of
from gamecert.fuzz.botcheck.codecs import codec_for
from gamecert.fuzz.botcheck.runner import RunOptions, RunResult, run
from gamecert.spec import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "examples" / "bots"


def bot_command(game: str, name: str) -> str:
    """The command for an example bot; `name` may carry the bot's own arguments after it."""
    name, *args = name.split()
    path = path_of(game, name)
    runner = "node" if name.endswith(".js") else sys.executable
    return shlex.join([runner, str(path), *args])


def check(game: str, name: str, *, max_queries: int | None = 60, games: int = 1,
          seat: int = 1, seed: int = 0, profile: str | None = None,
          variant: str | None = None, others: list[str] | None = None,
          time_scale: float = 1.0) -> RunResult:
    commands = {seat: bot_command(game, name)}
    codec = codec_for(game)
    prof = load_catalogue(game).profile(profile)
    free = [s for s in codec.seats(prof) if s != seat]
    for s, other in zip(free, others or [], strict=False):
        commands[s] = bot_command(game, other)
    options = RunOptions(game, prof, commands, seat,
                         seed=seed, games=games, budget=None, max_queries=max_queries,
                         variant=variant, time_scale=time_scale)
    return run(codec, options)


def gamecert(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gamecert", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=ROOT)
