"""The protocol's messages as the kit reads and writes them: queries and events in (checked
member by member, as a schema-validating library does), moves out (compact JSON, members in
the library's order)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]

# every event a 2025 engine may put in an update, with the members it must carry
EVENTS: dict[str, tuple[str, ...]] = {
    "event_game_started": ("turn_order", "players"),
    "public_event_game_started": ("turn_order", "you", "players", "num_starting_meeples"),
    "event_starting_tile_placed": ("tile_placed",),
    "event_player_drew_tiles": ("player_id", "num_tiles", "tiles"),
    "public_event_player_drew_tiles": ("player_id", "num_tiles"),
    "event_player_turn_started": ("player_id",),
    "move_place_tile": ("player_id", "tile", "player_tile_index"),
    "public_move_place_tile": ("player_id", "tile"),
    "move_place_meeple": ("player_id", "tile", "placed_on"),
    "move_place_meeple_pass": ("player_id",),
    "event_player_meeple_freed": ("player_id", "reward", "tile", "placed_on"),
    "event_river_phase_completed": ("end_tile",),
    "event_game_ended_point_limit_reached": ("player_id",),
    "event_game_ended_stale_mate": ("reason",),
    "event_game_ended_cancelled": ("reason",),
    "event_player_banned": ("player_id", "ban_type", "reason", "details"),
    "event_player_won": ("player_id", "points"),
}
TILE_MEMBERS = ("tile_type", "pos", "rotation")


class ProtocolError(RuntimeError):
    """The engine sent something the kit cannot read: a bot on the kit stops here."""


@dataclass(frozen=True)
class TileModel:
    tile_type: str
    pos: tuple[int, int]
    rotation: int

    def dump(self) -> Json:
        return {"tile_type": self.tile_type, "pos": list(self.pos), "rotation": self.rotation}

    @staticmethod
    def read(data: Any, where: str) -> TileModel:
        if not isinstance(data, dict) or any(m not in data for m in TILE_MEMBERS):
            raise ProtocolError(f"{where}: not a tile {{tile_type, pos, rotation}}: {data!r}")
        pos = data["pos"]
        if not (isinstance(pos, list) and len(pos) == 2):
            raise ProtocolError(f"{where}: pos {pos!r} is not [x, y]")
        return TileModel(str(data["tile_type"]), (int(pos[0]), int(pos[1])),
                         int(data["rotation"]))


def read_event(data: Any, where: str) -> Json:
    """One event of an update, checked: a known event_type and every member it needs."""
    if not isinstance(data, dict):
        raise ProtocolError(f"{where}: an event must be an object")
    kind = data.get("event_type")
    if kind not in EVENTS:
        raise ProtocolError(f"{where}: unrecognised event {kind!r}")
    missing = [m for m in EVENTS[kind] if m not in data]
    if missing:
        raise ProtocolError(f"{where}: {kind} lacks {', '.join(missing)}")
    return data


@dataclass
class QueryPlaceTile:
    update: dict[int, Json]


@dataclass
class QueryPlaceMeeple:
    update: dict[int, Json]


Query = QueryPlaceTile | QueryPlaceMeeple


def read_query(text: str) -> Query:
    data = json.loads(text)
    kind = data.get("query_type") if isinstance(data, dict) else None
    if kind not in ("query_place_tile", "query_place_meeple") or not isinstance(
            data.get("update"), dict):
        raise ProtocolError(f"not a query: {text[:80]!r}")
    update = {int(k): read_event(v, f"event {k}") for k, v in data["update"].items()}
    return QueryPlaceTile(update) if kind == "query_place_tile" else QueryPlaceMeeple(update)


@dataclass
class MovePlaceTile:
    player_id: int
    tile: TileModel
    player_tile_index: int

    def dump(self) -> Json:
        return {"event_type": "move_place_tile", "player_id": self.player_id,
                "tile": self.tile.dump(), "player_tile_index": self.player_tile_index}


@dataclass
class MovePlaceMeeple:
    player_id: int
    tile: TileModel
    placed_on: str  # top_edge, right_edge, bottom_edge, left_edge or MONASTARY

    def dump(self) -> Json:
        return {"event_type": "move_place_meeple", "player_id": self.player_id,
                "tile": self.tile.dump(), "placed_on": self.placed_on}


@dataclass
class MovePlaceMeeplePass:
    player_id: int

    def dump(self) -> Json:
        return {"event_type": "move_place_meeple_pass", "player_id": self.player_id}


Move = MovePlaceTile | MovePlaceMeeple | MovePlaceMeeplePass


def dump_move(move: Move) -> str:
    return json.dumps(move.dump(), separators=(",", ":"))
