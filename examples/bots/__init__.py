"""Example bots, one folder a game, and where each one's file is.

A bot is a program run by its path (`python3 path/to/bot.py`), never imported as part of this
package. A game with many bots groups them in subfolders (Carcassonne: `clean/`, `protocol/`,
`rules/`, beside the kit and the bots they share), so `path_of` finds a bot by its file name:
tests, benchmarks and documents name bots without their subfolder.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def path_of(game: str, name: str) -> Path:
    """The file of example bot `name` (e.g. "uturn.py") of examples/bots/<game>/: in the
    game's folder or in exactly one of its subfolders."""
    folder = HERE / game
    direct = folder / name
    if direct.is_file():
        return direct
    found = sorted(folder.glob(f"*/{name}"))
    if len(found) != 1:
        where = "in none of" if not found else "in more than one of"
        raise LookupError(f"examples/bots/{game}/: {name} {where} its subfolders")
    return found[0]
