#!/usr/bin/env python3
"""A slow reply: the bot's 3rd reply comes after SECONDS (its first argument, default 2.3; the
limit is 2 s). Expected in every seat: CARC-PROTO-LIMITS (late), verdict 'ban' (TIMEOUT)."""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from kit import Game, QueryPlaceMeeple, QueryPlaceTile
from kit.models import Move
from players import RandomPlayer

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 2.3


class LateReply(RandomPlayer):
    def tile(self, game: Game, query: QueryPlaceTile) -> Move:
        move = super().tile(game, query)
        self.slow()
        return move

    def meeple(self, game: Game, query: QueryPlaceMeeple) -> Move:
        move = super().meeple(game, query)
        self.slow()
        return move

    def slow(self) -> None:
        if self.queries == 3:
            time.sleep(DELAY)


LateReply().run()
