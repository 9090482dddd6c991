"""Reference engines: one subpackage per game, all with the shape of `contract.Game`.

Convention: `reference_engine.<game>` exports `ENGINE`, a class whose instances are the
game's `Game`. Adding a game is adding a subpackage; nothing here changes.
"""

from __future__ import annotations

import importlib
from typing import Any

from gamecert.reference_engine.contract import Game, Session


def reference_game(game: str) -> Game[Any, Any]:
    """A fresh reference `Game` for `game`."""
    try:
        module = importlib.import_module(f"gamecert.reference_engine.{game}")
    except ModuleNotFoundError:
        raise KeyError(f"no reference engine for game {game!r}") from None
    engine: Game[Any, Any] = module.ENGINE()
    return engine


def reference_session(game: str) -> Session[Any, Any]:
    return Session(reference_game(game), name=f"gamecert-reference-{game}")
