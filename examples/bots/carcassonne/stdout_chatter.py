#!/usr/bin/env python3
"""A bot that prints its state on stdout at every query, as the competition's own helper
library does with its debugging prints. Stdout is not the SYNCS protocol (the pipes are), so
this is harmless there. Expected in every seat: clean."""

from kit import Game, QueryPlaceMeeple, QueryPlaceTile
from kit.models import Move
from kit.state import describe
from players import GreedyScorer


class Chatter(GreedyScorer):
    def tile(self, game: Game, query: QueryPlaceTile) -> Move:
        print(f"query {self.queries + 1}: {describe(game.state)}", flush=True)
        return super().tile(game, query)

    def meeple(self, game: Game, query: QueryPlaceMeeple) -> Move:
        print(f"query {self.queries + 1}: claimable {self.spots(game)}", flush=True)
        return super().meeple(game, query)


Chatter().run()
