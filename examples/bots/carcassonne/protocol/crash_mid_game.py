#!/usr/bin/env python3
"""A crash mid-game: the bot's code raises an exception at its 7th query, so the process
exits with its pipes closed. Expected in every seat: CARC-PROTO-LIMITS (crash), verdict 'ban'
(the engine reads nothing more and waits out its time limit: TIMEOUT)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from kit import Game, QueryPlaceMeeple, QueryPlaceTile
from kit.models import Move
from players import GreedyScorer


class Crash(GreedyScorer):
    def tile(self, game: Game, query: QueryPlaceTile) -> Move:
        self.crash_at(7)
        return super().tile(game, query)

    def meeple(self, game: Game, query: QueryPlaceMeeple) -> Move:
        self.crash_at(7)
        return super().meeple(game, query)

    def crash_at(self, n: int) -> None:
        if self.queries + 1 == n:
            raise KeyError("tile_type")


Crash().run()
