"""Executable invariants, one or more per rule id, per game.

Convention: `oracles.<game>` exports `ORACLES`, a list of `Oracle`.
"""

from __future__ import annotations

import importlib

from gamecert.oracles.base import NA, OK, Oracle, Transition, Verdict, Violation


def oracles_for(game: str) -> list[Oracle]:
    try:
        module = importlib.import_module(f"gamecert.oracles.{game}")
    except ModuleNotFoundError:
        raise KeyError(f"no oracles for game {game!r}") from None
    return list(module.ORACLES)


__all__ = ["NA", "OK", "Oracle", "Transition", "Verdict", "Violation", "oracles_for"]
