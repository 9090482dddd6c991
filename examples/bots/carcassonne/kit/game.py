"""The kit's connection and game: the two named pipes in the bot's folder, opened in the
order the engine expects (to_engine for writing, then from_engine for reading), messages
framed `<count>,<json>`, and the move builders."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from kit.models import (
    Move,
    MovePlaceMeeple,
    MovePlaceMeeplePass,
    MovePlaceTile,
    QueryPlaceMeeple,
    QueryPlaceTile,
    TileModel,
    dump_move,
    read_query,
)
from kit.state import ClientState

Query = QueryPlaceTile | QueryPlaceMeeple


class Connection:
    def __init__(self) -> None:
        self.to_engine: TextIO = open("./io/to_engine.pipe", "w", encoding="utf-8")  # noqa: SIM115
        self.from_engine: TextIO = open("./io/from_engine.pipe", encoding="utf-8")  # noqa: SIM115

    def receive(self) -> str | None:
        """The next message's JSON text; None once the engine has closed the pipe."""
        head = ""
        while not head.endswith(","):
            c = self.from_engine.read(1)
            if not c:
                return None
            head += c
            if len(head) > 8:
                raise RuntimeError(f"not a message count: {head!r}")
        size = int(head[:-1])
        text = self.from_engine.read(size)
        return text if len(text) == size else None

    def send(self, text: str) -> None:
        self.to_engine.write(f"{len(text)},{text}")
        self.to_engine.flush()


class Game:
    def __init__(self) -> None:
        self.state = ClientState()
        self.connection = Connection()
        self.new_events = 0  # where this query's events start in the history

    def get_next_query(self) -> Query | None:
        """The next query, its update committed to the state; None when the game is over."""
        try:
            text = self.connection.receive()
        except BrokenPipeError:
            return None
        if text is None:
            return None
        query = read_query(text)
        self.new_events = len(self.state.event_history)
        for index, event in sorted(query.update.items()):
            self.state.commit(index, event)
        return query

    def send_move(self, move: Move) -> None:
        self.connection.send(dump_move(move))

    def move_place_tile(self, query: QueryPlaceTile, tile: TileModel,
                        tile_index: int) -> MovePlaceTile:
        return MovePlaceTile(self.state.player_id, tile, tile_index)

    def move_place_meeple(self, query: QueryPlaceMeeple, tile: TileModel,
                          placed_on: str) -> MovePlaceMeeple:
        return MovePlaceMeeple(self.state.player_id, tile, placed_on)

    def move_place_meeple_pass(self, query: QueryPlaceMeeple) -> MovePlaceMeeplePass:
        return MovePlaceMeeplePass(self.state.player_id)


def play(choose_tile: Callable[[Game, QueryPlaceTile], Move],
         choose_meeple: Callable[[Game, QueryPlaceMeeple], Move]) -> None:
    """Run a bot made of two functions, (game, query) -> move, until the game ends."""
    game = Game()
    try:
        while (query := game.get_next_query()) is not None:
            if isinstance(query, QueryPlaceTile):
                game.send_move(choose_tile(game, query))
            else:
                game.send_move(choose_meeple(game, query))
    except BrokenPipeError:
        sys.exit(0)
