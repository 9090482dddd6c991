"""The SYNCS 2025 bot protocol as the competition's engine reads a bot's message
(CARC-PROTO-FRAME, CARC-PROTO-REPLY), with gamecert's extension for farmers, towers and ransom
(`schemas/carcassonne-bot-ext.schema.json`; its moves are only accepted in the stage that
plays them).

Each fact below is the competition's, from its public engine's `interface/io` package and
its bot-side library `src/lib` (docs/bot-check.md lists them with file and line):

* A message is `<count>,<json>`. The engine reads characters one at a time until it has a
  comma or four characters (floor(log10(4096)) + 1); the characters before the comma are the
  count, read as Python's `int()` reads a string (so ` 53`, `+53`, `053` are 53). Then it
  reads `count` characters. Nothing ends a message: what follows starts the next one.
* The JSON is read as pydantic 2 reads it into the library's move models, in lax mode: extra
  members are ignored, an integer may be written 1, 1.0, "1" or true, `pos` is a list of two.
* `player_tile_index` indexes the player's hand as the engine keeps it: in the order its
  tiles were dealt and drawn, a played tile taken out (not sorted by tile type). The
  canonical state keeps hands sorted, so a caller that knows the deal order passes it.
* The spring and the lake are never in a bot's hand (the engine lays both), so a reply naming
  them is refused as the competition refuses any tile type outside R1-R9 and A-X.
* A claim names the tile just placed by its `pos` and `rotation` (its `tile_type` is not
  compared) and one of top_edge, right_edge, bottom_edge, left_edge, MONASTARY.

A refused reply raises `IllegalAction` (`BadMessage` when the competition bans it as an
INVALID_MESSAGE, the JSON not fitting the move model; an illegal move otherwise) with a message
a competitor can act on, never a traceback. This module must not keep time or talk to a
process: bot-check's codec does.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any, Protocol

from gamecert.reference_engine.carcassonne.state import (
    CLAIM,
    LIMIT,
    PASS,
    PLACE,
    Action,
    CarcConfig,
    CarcState,
    pack,
    unpack,
)
from gamecert.reference_engine.carcassonne.tiles import HALVES, SIDES
from gamecert.reference_engine.contract import IllegalAction


class Judge(Protocol):
    """What the referee asks of the engine: the engine passes itself in, so this module
    never imports it (data flows one way: state -> protocol -> engine)."""

    def any_placement(self, state: CarcState) -> bool: ...

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None: ...

    def claim_segment(self, state: CarcState, spot: str) -> int: ...

    def capture_segment(self, state: CarcState, cell: int, spot: str) -> int: ...

    def has_meeple(self, state: CarcState, player: int) -> bool: ...

    def apply(self, state: CarcState, action: Action) -> tuple[CarcState, list[Any]]: ...


class BadMessage(IllegalAction):
    """The message is not one the engine can read into the expected move model: the
    competition bans the bot with ban type INVALID_MESSAGE (an illegal move is INVALID_MOVE)."""


FRAME = re.compile(r"(\d{1,6}),(.*)", re.DOTALL)  # the canonical form (what frame() writes)
PLACED_ON = {"top_edge": "top", "right_edge": "right", "bottom_edge": "bottom",
             "left_edge": "left", "MONASTARY": "monastery"}
SPOT_WIRE = {v: k for k, v in PLACED_ON.items()}
MOVES = ("move_place_tile", "move_discard_tile", "move_place_meeple", "move_place_meeple_pass")
MODEL_MOVES = ("move_place_tile", "move_place_meeple", "move_place_meeple_pass")  # the 2025 ones
# the extension: a field by a half-edge of the placed tile (our top1 ... left2), clockwise
FIELD_PLACED_ON = {"top_left_field": "top1", "top_right_field": "top2",
                   "right_top_field": "right1", "right_bottom_field": "right2",
                   "bottom_right_field": "bottom1", "bottom_left_field": "bottom2",
                   "left_bottom_field": "left1", "left_top_field": "left2",
                   "enclosed_field": "field"}  # a field touching no edge (TO17)
FIELD_WIRE = {v: k for k, v in FIELD_PLACED_ON.items()}
TOWER_MOVES = ("move_tower_floor", "move_tower_cap", "move_pay_ransom",
               "move_exchange_prisoners")
_LAX_INT = re.compile(r"\s*[+-]?[0-9]+(?:_[0-9]+)*(?:\.0*)?\s*")


def to_wire_pos(cfg: CarcConfig, xy: list[int]) -> list[int]:
    """Our [x, y] (spring at [0, 0]) on the protocol's grid (spring at the centre)."""
    return [xy[0] + cfg.centre, xy[1] + cfg.centre]


def from_wire_pos(cfg: CarcConfig, pos: list[int]) -> list[int]:
    return [pos[0] - cfg.centre, pos[1] - cfg.centre]


def frame(text: str) -> str:
    """Frame a JSON text for the wire, as the engine and the library write it."""
    return f"{len(text)},{text}"


def limits(cfg: CarcConfig) -> tuple[int, int]:
    """CARC-PROTO-FRAME: (max_chars, count_chars): the longest message the count may announce,
    and how many characters the engine reads at most for the count and its comma
    (floor(log10(max_chars)) + 1)."""
    return cfg.max_chars, int(cfg.profile.param("CARC-PROTO-FRAME", "count_chars"))


def message_end(text: str, cfg: CarcConfig) -> int | None:
    """How many characters of `text` the engine reads as its next message; None while more
    must come. A count it cannot read ends the message where it gave up (the bot is banned
    there, whatever follows)."""
    max_chars, head = limits(cfg)
    comma = text.find(",", 0, head)
    if comma < 0:
        return head if len(text) >= head else None
    count = read_count(text[:comma])
    if count is None or count > max_chars:
        return comma + 1
    end = comma + 1 + max(count, 0)
    return end if len(text) >= end else None


def read_count(head: str) -> int | None:
    """The count as the engine reads it: Python's int() of the characters before the comma."""
    try:
        return int(head)
    except ValueError:
        return None


def split_message(text: str, cfg: CarcConfig) -> str:
    """CARC-PROTO-FRAME: the JSON text of one message read exactly as the engine reads it;
    characters left over would start the next message, so one reply must not carry them."""
    if not isinstance(text, str):
        raise BadMessage("a bot message must be text")
    max_chars, head_chars = limits(cfg)
    comma = text.find(",", 0, head_chars)
    if comma < 0:
        shown = text[:40] + ("..." if len(text) > 40 else "")
        raise BadMessage(f"malformed message {shown!r}: the engine reads at most "
                         f"{head_chars - 1} characters of count before the comma of "
                         f"'<count>,<json>' (CARC-PROTO-FRAME)")
    head = text[:comma]
    count = read_count(head)
    if count is None:
        raise BadMessage(f"the count {head!r} before the comma is not a number "
                         f"(CARC-PROTO-FRAME)")
    if count > max_chars:
        raise BadMessage(f"the count says {count} characters; at most {max_chars} are "
                         f"allowed (CARC-PROTO-FRAME)")
    body = text[comma + 1:]
    want = max(count, 0)
    if len(body) < want:
        raise BadMessage(f"the count says {count} characters but only {len(body)} follow "
                         f"the comma (CARC-PROTO-FRAME)")
    if len(body) > want:
        raise BadMessage(f"the count says {count} characters but {len(body)} follow the "
                         f"comma: the engine reads the rest as the start of the next message "
                         f"(CARC-PROTO-FRAME)")
    return body


def parse_frame(text: str, cfg: CarcConfig) -> dict[str, Any]:
    """CARC-PROTO-FRAME: the JSON object inside one framed message."""
    body = split_message(text, cfg)
    try:
        data = json.loads(body, parse_constant=_no_constant)
    except (json.JSONDecodeError, ValueError) as exc:
        where = f": {exc.msg} at character {exc.pos}" if isinstance(
            exc, json.JSONDecodeError) else ""
        raise BadMessage(f"the message is not valid JSON{where} (CARC-PROTO-FRAME)") from None
    if not isinstance(data, dict):
        raise BadMessage("the message must be a JSON object (CARC-PROTO-FRAME)")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# --- the library's move models, read as pydantic 2 reads JSON (lax mode) -----------------
def lax_int(value: Any) -> int | None:
    """An int field: a JSON integer, a whole finite number, true/false, or a string of one."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value == int(value) else None
    if isinstance(value, str) and _LAX_INT.fullmatch(value):
        return int(float(value.strip().replace("_", ""))) if "." in value else int(value)
    return None


def _need(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise BadMessage(f"{where} has no {key!r} (the move model requires it)")
    return data[key]


def _model_int(data: dict[str, Any], key: str, where: str) -> int:
    value = lax_int(_need(data, key, where))
    if value is None:
        raise BadMessage(f"{where}.{key} {data[key]!r} is not an integer")
    return value


def _model_str(data: dict[str, Any], key: str, where: str) -> str:
    value = _need(data, key, where)
    if not isinstance(value, str):
        raise BadMessage(f"{where}.{key} {value!r} is not a string")
    return value


def _model_tile(data: dict[str, Any], where: str) -> dict[str, Any]:
    """TileModel: tile_type (string), pos (a list of two integers), rotation (integer)."""
    tile = _need(data, "tile", where)
    if not isinstance(tile, dict):
        raise BadMessage(f"{where}.tile must be an object {{tile_type, pos, rotation}}")
    pos = _need(tile, "pos", f"{where}.tile")
    if not isinstance(pos, list) or len(pos) != 2:
        raise BadMessage(f"{where}.tile.pos {pos!r} is not [x, y]")
    xy = [lax_int(v) for v in pos]
    if None in xy:
        raise BadMessage(f"{where}.tile.pos {pos!r} is not [x, y] with two integers")
    return {"tile_type": _model_str(tile, "tile_type", f"{where}.tile"), "pos": xy,
            "rotation": _model_int(tile, "rotation", f"{where}.tile")}


def read_move(data: dict[str, Any], step: int, cfg: CarcConfig) -> dict[str, Any]:
    """The move the engine reads from `data`: MovePlaceTile for query_place_tile; a
    MovePlaceMeeple or MovePlaceMeeplePass for query_place_meeple (gamecert's extension adds
    its moves in the stages that play them). Raises BadMessage as pydantic would fail."""
    event = data.get("event_type")
    ext = ("move_discard_tile",) + (TOWER_MOVES if cfg.tower else ())
    if event in ext:
        return data  # gamecert's own messages: read strictly by `referee`
    if step == PLACE:
        if event != "move_place_tile":
            raise BadMessage(f"event_type {event!r}: query_place_tile is answered with "
                             f"move_place_tile")
        return {"event_type": event, "player_id": _model_int(data, "player_id", event),
                "tile": _model_tile(data, event),
                "player_tile_index": _model_int(data, "player_tile_index", event)}
    if event == "move_place_meeple":
        return {"event_type": event, "player_id": _model_int(data, "player_id", event),
                "tile": _model_tile(data, event),
                "placed_on": _model_str(data, "placed_on", event)}
    if event == "move_place_meeple_pass":
        return {"event_type": event, "player_id": _model_int(data, "player_id", event)}
    raise BadMessage(f"event_type {event!r}: query_place_meeple is answered with "
                     f"move_place_meeple or move_place_meeple_pass")


# --- the referee ---------------------------------------------------------------------------
def placeable(cfg: CarcConfig, tile_type: str) -> bool:
    """A tile type a bot may name: the competition's R1-R9 and A-X (the extension's tower
    tiles in the tower stage); never the spring or the lake, which the engine lays."""
    t = cfg.t
    k = t.index.get(tile_type)
    return k is not None and k not in (t.spring, t.lake) and t.counts[k] > 0


def hand_order(state: CarcState, player: int, hand: Sequence[str] | None) -> list[str]:
    """The player's hand as the engine indexes it: the deal order when the caller knows it,
    else the canonical state's order."""
    if hand is not None:
        return list(hand)
    return [state.cfg.t.ids[k] for k in state.hands[player - 1]]


def _hand_tile(state: CarcState, move: dict[str, Any], event: str,
               hand: Sequence[str] | None) -> int:
    """The hand tile a place or discard reply names, checked against player_tile_index in
    the competition's order (tile type, index range, type in hand, the tile at the index)."""
    cfg = state.cfg
    t = cfg.t
    tile = move["tile"]
    tile_type = tile.get("tile_type") if isinstance(tile, dict) else None
    if not isinstance(tile_type, str) or tile_type not in t.index or not placeable(
            cfg, tile_type):
        raise IllegalAction(f"{event}: {tile_type!r} is not a tile type a bot may place")
    held = hand_order(state, state.to_move, hand)
    index = move.get("player_tile_index")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < cfg.hand_max:
        raise IllegalAction(f"{event}: player_tile_index {index!r} is not 0-{cfg.hand_max - 1}")
    if tile_type not in held:
        raise IllegalAction(f"{event}: tile {tile_type} is not in your hand "
                            f"(hand: {', '.join(held) or 'empty'})")
    if index >= len(held):
        raise IllegalAction(f"{event}: player_tile_index {index} is past the end of your hand "
                            f"({', '.join(held)}, in the order dealt and drawn)")
    if held[index] != tile_type:
        raise IllegalAction(f"{event}: player_tile_index {index} is {held[index]} in your hand "
                            f"({', '.join(held)}, in the order dealt and drawn), not "
                            f"{tile_type}")
    return t.index[tile_type]


def referee(game: Judge, state: CarcState, text: str,
            hand: Sequence[str] | None = None) -> Action:
    """CARC-PROTO-REPLY: the action a bot's framed reply asks for, or IllegalAction.
    `hand` is the player's hand in the order dealt and drawn (default: the state's order)."""
    return read_reply(game, state, text, hand)[0]


def read_reply(game: Judge, state: CarcState, text: str,
               hand: Sequence[str] | None = None) -> tuple[Action, dict[str, Any]]:
    """The action and the move as the engine keeps it (normalised as its model reads it: what
    it tells the players afterwards), or IllegalAction."""
    cfg = state.cfg
    if state.step not in (PLACE, CLAIM):
        raise IllegalAction("no player is asked to move now")
    data = parse_frame(text, cfg)
    move = read_move(data, state.step, cfg)
    event = move.get("event_type")
    moves = MOVES + (TOWER_MOVES if cfg.tower else ())
    if event not in moves:
        raise BadMessage(f"event_type {event!r} is not one of {', '.join(moves)}")
    player_id = move.get("player_id")  # the 2025 moves' is read (lax); the extension's strictly
    if event not in MODEL_MOVES and not _int(player_id):
        raise IllegalAction(f"{event}: player_id {player_id!r} is not an integer")
    if player_id != state.to_move - 1:
        raise IllegalAction(f"{event}: player_id {move.get('player_id')!r}, but player_id "
                            f"{state.to_move - 1} is to move")
    if event in TOWER_MOVES:
        return _checked(game, state, event, _tower_move(game, state, move, event)), move
    if state.step == PLACE:
        if event not in ("move_place_tile", "move_discard_tile"):
            raise IllegalAction(f"a tile placement is expected now, not {event}")
        if event == "move_discard_tile":
            _strict_tile(move, event)
        k = _hand_tile(state, move, event, hand)
        if event == "move_discard_tile":
            if game.any_placement(state):
                raise IllegalAction("move_discard_tile: a tile of your hand can be placed; "
                                    "discarding is only allowed when none fits (CARC-HAND-NOFIT)")
            return ("discard", k), move
        tile = move["tile"]
        pos, rot = tile["pos"], tile["rotation"]
        if not 0 <= rot <= 3:
            raise IllegalAction(f"{event}: rotation {rot!r} is not 0, 1, 2 or 3")
        x, y = from_wire_pos(cfg, pos)
        if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT):
            raise IllegalAction(f"{event}: pos {pos} is far from every placed tile "
                                f"(CARC-PLACE-ADJACENT)")
        if not game.any_placement(state):
            raise IllegalAction(f"{event}: no tile of your hand fits anywhere; reply "
                                f"move_discard_tile (CARC-HAND-NOFIT)")
        cell = pack(x, y)
        why = game.placement_problem(state, k, cell, rot)
        if why:
            raise IllegalAction(f"{event}: pos {pos} (our {[x, y]}): {why}")
        return ("place", k, cell, rot), move
    if event not in ("move_place_meeple", "move_place_meeple_pass"):
        raise IllegalAction(f"a claim or a pass is expected now, not {event}")
    if event == "move_place_meeple_pass":
        return PASS, move
    tile = move["tile"]
    placed = to_wire_pos(cfg, unpack(state.placed))
    rotation = state.board[state.placed][1]
    if tile["pos"] != placed or tile["rotation"] != rotation:
        raise IllegalAction(f"{event}: the tile must be the one just placed, at {placed} with "
                            f"rotation {rotation}, not at {tile['pos']} with rotation "
                            f"{tile['rotation']} (CARC-CLAIM-PLACED-TILE)")
    if not game.has_meeple(state, state.to_move):
        raise IllegalAction(f"{event}: you have no meeple left in your supply "
                            f"(CARC-MEEPLE-SUPPLY)")
    where = move["placed_on"]
    names = {**PLACED_ON, **(FIELD_PLACED_ON if cfg.farms else {})}
    if where not in names:
        raise IllegalAction(f"{event}: placed_on {where!r} is not one of "
                            f"{', '.join(names)}")
    return _checked(game, state, event, ("claim", game.claim_segment(state, names[where]))), move


def _strict_tile(move: dict[str, Any], event: str) -> None:
    tile = move.get("tile")
    if not isinstance(tile, dict):
        raise BadMessage(f"{event}: 'tile' must be an object")
    if "tile_type" not in tile:
        raise BadMessage(f"{event}.tile has no 'tile_type'")


def _checked(game: Judge, state: CarcState, event: str, action: Action) -> Action:
    """`action` if the rules allow it now, else IllegalAction naming the reply."""
    try:
        game.apply(state, action)
    except IllegalAction as exc:
        raise IllegalAction(f"{event}: {exc}") from None
    return action


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _field(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise IllegalAction(f"{where} has no {key!r}")
    return data[key]


def _wire_cell(cfg: CarcConfig, value: Any, what: str) -> int:
    if not (isinstance(value, list) and len(value) == 2 and all(_int(v) for v in value)):
        raise IllegalAction(f"{what} {value!r} is not [x, y] with two integers")
    x, y = from_wire_pos(cfg, value)
    if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT):
        raise IllegalAction(f"{what} {value} is far from every placed tile")
    return pack(x, y)


def _tower_move(game: Judge, state: CarcState, data: dict[str, Any], event: str) -> Action:
    """The extension's tower-stage replies: a floor (with a capture), a cap, a ransom, an
    exchange of prisoners on request."""
    cfg = state.cfg
    if event == "move_pay_ransom":
        step = PLACE if cfg.ransom_before else CLAIM
        if state.step != step:
            raise IllegalAction(f"{event}: a ransom is paid when asked to "
                                f"{'place a tile' if cfg.ransom_before else 'act after placing'}"
                                f" (CARC-TOWER-RANSOM)")
        captor = _field(data, "captor_id", event)
        if not _int(captor) or not 0 <= captor < cfg.players:
            raise IllegalAction(f"{event}: captor_id {captor!r} is not a player id")
        return ("ransom", captor + 1)
    if event == "move_exchange_prisoners":
        if cfg.exchange_now:
            raise IllegalAction(f"{event}: prisoners are exchanged at once in this profile, "
                                f"never on request (CARC-TOWER-EXCHANGE = immediate)")
        if state.step != PLACE:
            raise IllegalAction(f"{event}: an exchange is asked for when asked to place a "
                                f"tile (CARC-TOWER-EXCHANGE)")
        other = _field(data, "other_id", event)
        if not _int(other) or not 0 <= other < cfg.players:
            raise IllegalAction(f"{event}: other_id {other!r} is not a player id")
        return ("exchange", other + 1)
    if state.step != CLAIM:
        raise IllegalAction(f"a tile placement is expected now, not {event}")
    pos = _wire_cell(cfg, _field(data, "tower_pos", event), f"{event}: tower_pos")
    if event == "move_tower_cap":
        return ("cap", pos)
    capture = _field(data, "capture", event)
    if capture is None:
        return ("tower", pos, -1, -1)
    if not isinstance(capture, dict):
        raise IllegalAction(f"{event}: capture must be null or {{pos, placed_on}}")
    cell = _wire_cell(cfg, _field(capture, "pos", f"{event}.capture"), f"{event}: capture.pos")
    where = _field(capture, "placed_on", f"{event}.capture")
    names = {**PLACED_ON, **FIELD_PLACED_ON, "TOWER": "tower"}
    if where not in names:
        raise IllegalAction(f"{event}: capture.placed_on {where!r} is not one of "
                            f"{', '.join(names)}")
    return ("tower", pos, cell, _capture_segment(game, state, cell, names[where]))


def _capture_segment(game: Judge, state: CarcState, cell: int, spot: str) -> int:
    """The meeple a capture names by any side or half-edge of its feature on that tile (a
    claim is echoed to every player with the name its bot gave, which need not be the
    feature's first)."""
    placed = state.board.get(cell)
    if placed is not None and spot in SIDES + HALVES:
        rt = state.cfg.t.rot[placed[0]][placed[1]]
        if spot in SIDES and rt.side_seg[SIDES.index(spot)] >= 0:
            return rt.side_seg[SIDES.index(spot)]
        if spot in HALVES and rt.half_field[HALVES.index(spot)] >= 0:
            return len(rt.segs) + rt.half_field[HALVES.index(spot)]
    return game.capture_segment(state, cell, spot)
