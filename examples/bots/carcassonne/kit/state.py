"""The kit's client state, fed event by event from each query's update as the library's
state mutator feeds its own: the update's indices must follow on from the last one seen, and
each event must be one this bot may be sent (its own private draws and placements, the
others' public ones). The hand (`my_tiles`) is kept in the engine's order: tiles appended as
drawn, the placed one taken out at the index the engine echoes back."""

from __future__ import annotations

from typing import Any

from kit.board import Board
from kit.models import Json, ProtocolError, TileModel


class ClientState:
    def __init__(self) -> None:
        self.event_history: list[Json] = []
        self.me: Json = {}
        self.my_tiles: list[str] = []
        self.players: dict[int, Json] = {}
        self.meeples: dict[int, int] = {}
        self.turn_order: list[int] = []
        self.round = -1
        self.map = Board()

    @property
    def player_id(self) -> int:
        return int(self.me["player_id"])

    def commit(self, index: int, e: Json) -> None:
        if index != len(self.event_history):
            raise ProtocolError(f"event {index} arrived where event {len(self.event_history)} "
                                f"was due")
        self.event_history.append(e)
        getattr(self, "_" + e["event_type"], self._unhandled)(e)

    def _unhandled(self, e: Json) -> None:
        raise ProtocolError(f"no handler for {e['event_type']}")

    # --- the events --------------------------------------------------------------------
    def _event_game_started(self, e: Json) -> None:
        raise ProtocolError("event_game_started is the engine's own: a bot is sent "
                            "public_event_game_started")

    def _public_event_game_started(self, e: Json) -> None:
        self.me = dict(e["you"])
        self.turn_order = list(e["turn_order"])
        self.players = {p["player_id"]: dict(p) for p in e["players"]}
        self.meeples = {p["player_id"]: e["num_starting_meeples"] for p in e["players"]}
        self.me["num_meeples"] = e["num_starting_meeples"]

    def _event_starting_tile_placed(self, e: Json) -> None:
        t = TileModel.read(e["tile_placed"], "tile_placed")
        self.map.place(t.tile_type, t.pos, t.rotation)

    def _event_player_drew_tiles(self, e: Json) -> None:
        if e["player_id"] != self.player_id:
            raise ProtocolError("another player's private draw was sent to this bot")
        for data in e["tiles"]:
            self.my_tiles.append(TileModel.read(data, "drawn tile").tile_type)
        self.players[e["player_id"]]["num_tiles"] += e["num_tiles"]

    def _public_event_player_drew_tiles(self, e: Json) -> None:
        if e["player_id"] == self.player_id:
            raise ProtocolError("this bot's own draw came as the public event")
        self.players[e["player_id"]]["num_tiles"] += e["num_tiles"]

    def _event_player_turn_started(self, e: Json) -> None:
        if self.turn_order and e["player_id"] == self.turn_order[0]:
            self.round += 1

    def _move_place_tile(self, e: Json) -> None:
        if e["player_id"] != self.player_id:
            raise ProtocolError("another player's private placement was sent to this bot")
        t = TileModel.read(e["tile"], "move_place_tile")
        index = e["player_tile_index"]
        tile = self.my_tiles.pop(index)
        if tile != t.tile_type:
            raise ProtocolError(f"tile {index} of the hand is {tile}, the engine placed "
                                f"{t.tile_type}")
        self.map.place(tile, t.pos, t.rotation)
        self.players[e["player_id"]]["num_tiles"] -= 1

    def _public_move_place_tile(self, e: Json) -> None:
        # the library takes the tile from the pool, not from the hand: a harness that sent a
        # bot its own placement this way would leave the placed tile in its hand
        t = TileModel.read(e["tile"], "public_move_place_tile")
        self.map.place(t.tile_type, t.pos, t.rotation)
        self.players[e["player_id"]]["num_tiles"] -= 1

    def _move_place_meeple(self, e: Json) -> None:
        t = TileModel.read(e["tile"], "move_place_meeple")
        self.map.claim(t.pos, e["placed_on"], e["player_id"])
        self.meeples[e["player_id"]] -= 1
        if e["player_id"] == self.player_id:
            self.me["num_meeples"] -= 1

    def _move_place_meeple_pass(self, e: Json) -> None:
        pass

    def _event_player_meeple_freed(self, e: Json) -> None:
        t = TileModel.read(e["tile"], "event_player_meeple_freed")
        self.map.claim(t.pos, e["placed_on"], e["player_id"], -1)
        self.meeples[e["player_id"]] += 1
        self.players[e["player_id"]]["points"] += e["reward"]
        if e["player_id"] == self.player_id:
            self.me["num_meeples"] += 1
            self.me["points"] += e["reward"]

    def _event_river_phase_completed(self, e: Json) -> None:
        t = TileModel.read(e["end_tile"], "end_tile")
        self.map.place(t.tile_type, t.pos, t.rotation)  # the engine lays the lake
        self.map.river_phase = False

    def _event_game_ended_point_limit_reached(self, e: Json) -> None:
        pass

    def _event_game_ended_stale_mate(self, e: Json) -> None:
        pass

    def _event_game_ended_cancelled(self, e: Json) -> None:
        pass

    def _event_player_banned(self, e: Json) -> None:
        pass

    def _event_player_won(self, e: Json) -> None:
        pass


def describe(state: ClientState) -> dict[str, Any]:
    """A short summary, for a bot's own log."""
    return {"me": state.player_id, "hand": state.my_tiles, "tiles": len(state.map.grid),
            "meeples": state.me.get("num_meeples"), "points": state.me.get("points")}
