"""A small starter kit for SYNCS Bot Battle 2025 Carcassonne bots, in the shape of the
competition's public bot-side library (a `Game` with `get_next_query`, `send_move` and the
`move_*` builders; a client state fed by the query updates), written for gamecert's example
bots. It reads the protocol the way that library does, strictly: an update whose indices do
not follow on, an event it does not know or that lacks a member, a private event about
another player, are errors, so a harness that sends the wrong view makes a kit bot fail as it
would fail on the real kit. A competitor's bot imports it and chooses moves:

    from kit import Game, QueryPlaceTile

    game = Game()
    while (query := game.get_next_query()) is not None:
        if isinstance(query, QueryPlaceTile):
            game.send_move(my_tile_move(game, query))
        else:
            game.send_move(my_meeple_move(game, query))
"""

from kit.game import Game
from kit.models import (
    MovePlaceMeeple,
    MovePlaceMeeplePass,
    MovePlaceTile,
    QueryPlaceMeeple,
    QueryPlaceTile,
    TileModel,
)

__all__ = ["Game", "MovePlaceMeeple", "MovePlaceMeeplePass", "MovePlaceTile",
           "QueryPlaceMeeple", "QueryPlaceTile", "TileModel"]
