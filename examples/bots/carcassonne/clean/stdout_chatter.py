#!/usr/bin/env python3
"""A bot that prints its state on stdout at every query, as the competition's own helper
library does with its debugging prints. Stdout is not the SYNCS protocol (the pipes are), so
this is harmless there. Expected in every seat: clean. With an argument N it also prints N
bytes at its first query (over a pipe's 64 KiB: a warning, as an arena that never reads a
bot's stdout would see the bot block)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from kit import Game, QueryPlaceMeeple, QueryPlaceTile
from kit.models import Move
from kit.state import describe
from players import GreedyScorer


class Chatter(GreedyScorer):
    def tile(self, game: Game, query: QueryPlaceTile) -> Move:
        if self.queries == 0 and len(sys.argv) > 1:
            print("x" * int(sys.argv[1]), flush=True)
        print(f"query {self.queries + 1}: {describe(game.state)}", flush=True)
        return super().tile(game, query)

    def meeple(self, game: Game, query: QueryPlaceMeeple) -> Move:
        print(f"query {self.queries + 1}: claimable {self.spots(game)}", flush=True)
        return super().meeple(game, query)


Chatter().run()
