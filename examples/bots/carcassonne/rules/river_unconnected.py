#!/usr/bin/env python3
"""A river tile laid away from the river: at its first river turn the bot puts its river tile
beside the board where the edges it faces match, but not at the river's open end, so the
river is not one stream. Expected in every seat: CARC-RIVER-CONTIGUOUS, verdict 'ban' (the
competition: "You placed a river tile without connecting it to the rest of the river.")."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # kit/, the shared bots

from kit import Game, QueryPlaceTile, TileModel
from kit.models import Move
from kit.tiles import river_sides
from players import RandomPlayer, seed_from_args


class RiverUnconnected(RandomPlayer):
    def tile(self, game: Game, query: QueryPlaceTile) -> Move:
        board, hand = game.state.map, game.state.my_tiles
        if not (board.river_phase and hand and river_sides(hand[0], 0)):
            return super().tile(game, query)
        self.queries += 1
        away = [c for c in board.frontier() if c != board.river_open]
        choices = [(c, r) for c in away for r in range(4) if board.edges_match(hand[0], c, r)]
        pos, rotation = choices[0] if choices else (away[0], 0)
        self.placed = TileModel(hand[0], pos, rotation)
        return game.move_place_tile(query, self.placed, 0)


RiverUnconnected(seed_from_args()).run()
