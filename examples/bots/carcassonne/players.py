"""Three bots as competitors write them on the starter kit (`kit`), and the faulty bots in
this folder build on them: each keeps the tile it placed, to name it when it claims.

* RandomPlayer: a random legal placement, and half the time a random legal claim.
* GreedyScorer: the placement worth most now (the features it finishes for itself), then a
  claim on the placed tile's best free feature while it has meeples to spare.
* MeepleHoarder: the greedy placement, and never a meeple.
"""

from __future__ import annotations

import random
import sys

from kit import Game, QueryPlaceMeeple, QueryPlaceTile, TileModel
from kit.game import play
from kit.models import Move

PREFERENCE = {"C": 0, "M": 1, "R": 2}  # cities first, then monasteries, then roads


class RandomPlayer:
    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.placed: TileModel | None = None
        self.queries = 0

    def options(self, game: Game) -> list[tuple[int, str, tuple[int, int], int]]:
        return game.state.map.placements(game.state.my_tiles)

    def pick(self, game: Game, options: list[tuple[int, str, tuple[int, int], int]]
             ) -> tuple[int, str, tuple[int, int], int]:
        return self.rng.choice(options)

    def tile(self, game: Game, query: QueryPlaceTile) -> Move:
        self.queries += 1
        options = self.options(game)
        if not options:  # the 2025 protocol has no discard: nothing good to send
            frontier = game.state.map.frontier()
            options = [(0, game.state.my_tiles[0], frontier[0], 0)]
        index, tile, pos, rotation = self.pick(game, options)
        self.placed = TileModel(tile, pos, rotation)
        return game.move_place_tile(query, self.placed, index)

    def spots(self, game: Game) -> list[tuple[str, str]]:
        if self.placed is None or game.state.me.get("num_meeples", 0) <= 0:
            return []
        return game.state.map.claimable(self.placed.pos)

    def meeple(self, game: Game, query: QueryPlaceMeeple) -> Move:
        self.queries += 1
        spots = self.spots(game)
        if spots and self.placed is not None and self.rng.random() < 0.5:
            on, _ = self.rng.choice(spots)
            return game.move_place_meeple(query, self.placed, on)
        return game.move_place_meeple_pass(query)

    def run(self) -> None:
        play(self.tile, self.meeple)


class GreedyScorer(RandomPlayer):
    def pick(self, game: Game, options: list[tuple[int, str, tuple[int, int], int]]
             ) -> tuple[int, str, tuple[int, int], int]:
        board, me = game.state.map, game.state.player_id
        return max(options, key=lambda o: board.gain(o[1], o[2], o[3], me))

    def meeple(self, game: Game, query: QueryPlaceMeeple) -> Move:
        self.queries += 1
        spots = sorted(self.spots(game), key=lambda s: PREFERENCE[s[1]])
        if spots and self.placed is not None and game.state.me.get("num_meeples", 0) >= 2:
            return game.move_place_meeple(query, self.placed, spots[0][0])
        return game.move_place_meeple_pass(query)


class MeepleHoarder(GreedyScorer):
    def meeple(self, game: Game, query: QueryPlaceMeeple) -> Move:
        self.queries += 1
        return game.move_place_meeple_pass(query)


def seed_from_args() -> int:
    return int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 0
