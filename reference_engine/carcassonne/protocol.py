"""The SYNCS 2025 bot protocol, as far as the referee needs it (CARC-PROTO-FRAME, -REPLY), with
gamecert's extension for farmers, towers and ransom (`schemas/carcassonne-bot-ext.schema.json`;
its moves are only accepted in the stage that plays them).

A bot message is `<decimal character count>,<json>`. The referee turns one such message into
an engine action or raises `IllegalAction` with a message a competitor can act on; it never
lets a malformed reply through as a traceback.
"""

from __future__ import annotations

import json
import re
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
from gamecert.reference_engine.contract import IllegalAction


class Judge(Protocol):
    """What the referee asks of the engine: the engine passes itself in, so this module
    never imports it (data flows one way: state -> protocol -> engine)."""

    def any_placement(self, state: CarcState) -> bool: ...

    def placement_problem(self, state: CarcState, k: int, pos: int, rot: int) -> str | None: ...

    def claim_segment(self, state: CarcState, spot: str) -> int: ...

    def capture_segment(self, state: CarcState, cell: int, spot: str) -> int: ...

    def apply(self, state: CarcState, action: Action) -> tuple[CarcState, list[Any]]: ...

FRAME = re.compile(r"(\d{1,6}),(.*)", re.DOTALL)
PLACED_ON = {"top_edge": "top", "right_edge": "right", "bottom_edge": "bottom",
             "left_edge": "left", "MONASTARY": "monastery"}
SPOT_WIRE = {v: k for k, v in PLACED_ON.items()}
MOVES = ("move_place_tile", "move_discard_tile", "move_place_meeple", "move_place_meeple_pass")
# the extension: a field by a half-edge of the placed tile (our top1 ... left2), clockwise
FIELD_PLACED_ON = {"top_left_field": "top1", "top_right_field": "top2",
                   "right_top_field": "right1", "right_bottom_field": "right2",
                   "bottom_right_field": "bottom1", "bottom_left_field": "bottom2",
                   "left_bottom_field": "left1", "left_top_field": "left2",
                   "enclosed_field": "field"}  # a field touching no edge (TO17)
FIELD_WIRE = {v: k for k, v in FIELD_PLACED_ON.items()}
TOWER_MOVES = ("move_tower_floor", "move_tower_cap", "move_pay_ransom",
               "move_exchange_prisoners")


def to_wire_pos(cfg: CarcConfig, xy: list[int]) -> list[int]:
    """Our [x, y] (spring at [0, 0]) on the protocol's grid (spring at the centre)."""
    return [xy[0] + cfg.centre, xy[1] + cfg.centre]


def from_wire_pos(cfg: CarcConfig, pos: list[int]) -> list[int]:
    return [pos[0] - cfg.centre, pos[1] - cfg.centre]


def frame(text: str) -> str:
    """Frame a JSON text for the wire."""
    return f"{len(text)},{text}"


def parse_frame(text: str, max_chars: int) -> dict[str, Any]:
    """CARC-PROTO-FRAME: the JSON object inside one framed message."""
    if not isinstance(text, str):
        raise IllegalAction("a bot message must be text")
    if len(text) > max_chars:
        raise IllegalAction(f"the message has {len(text)} characters; at most {max_chars} are "
                            f"allowed (CARC-PROTO-FRAME)")
    m = FRAME.fullmatch(text)
    if not m:
        shown = text[:40] + ("..." if len(text) > 40 else "")
        raise IllegalAction(f"malformed message {shown!r}: expected '<length>,<json>' with the "
                            f"length in decimal digits (CARC-PROTO-FRAME)")
    count, body = int(m.group(1)), m.group(2)
    if count != len(body):
        raise IllegalAction(f"the length prefix says {count} characters but {len(body)} follow "
                            f"the comma (CARC-PROTO-FRAME)")
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise IllegalAction(f"the message is not valid JSON: {exc.msg} at character {exc.pos}"
                            ) from None
    if not isinstance(data, dict):
        raise IllegalAction("the message must be a JSON object")
    return data


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _field(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise IllegalAction(f"{where} has no {key!r}")
    return data[key]


def _hand_tile(game: Judge, state: CarcState, data: dict[str, Any], event: str) -> int:
    """The hand tile a place or discard reply names, checked against player_tile_index."""
    t, p = state.cfg.t, state.to_move
    tile = _field(data, "tile", event)
    if not isinstance(tile, dict):
        raise IllegalAction(f"{event}: 'tile' must be an object")
    tile_type = _field(tile, "tile_type", f"{event}.tile")
    hand = sorted(t.ids[k] for k in state.hands[p - 1])
    if not isinstance(tile_type, str) or tile_type not in t.index:
        raise IllegalAction(f"{event}: {tile_type!r} is not a tile type")
    if tile_type not in hand:
        raise IllegalAction(f"{event}: tile {tile_type} is not in your hand "
                            f"(hand: {', '.join(hand) or 'empty'})")
    index = _field(data, "player_tile_index", event)
    if not _int(index) or not 0 <= index < len(hand):
        raise IllegalAction(f"{event}: player_tile_index {index!r} is not 0-{len(hand) - 1}")
    if hand[index] != tile_type:
        raise IllegalAction(f"{event}: player_tile_index {index} is {hand[index]} in your hand, "
                            f"not {tile_type}")
    return t.index[tile_type]


def referee(game: Judge, state: CarcState, text: str) -> Action:
    """CARC-PROTO-REPLY: the action a bot's framed reply asks for, or IllegalAction."""
    cfg = state.cfg
    if state.step not in (PLACE, CLAIM):
        raise IllegalAction("no player is asked to move now")
    data = parse_frame(text, cfg.max_chars)
    event = data.get("event_type")
    moves = MOVES + (TOWER_MOVES if cfg.tower else ())
    if event not in moves:
        raise IllegalAction(f"event_type {event!r} is not one of {', '.join(moves)}")
    player_id = _field(data, "player_id", event)
    if not _int(player_id) or player_id != state.to_move - 1:
        raise IllegalAction(f"{event}: player_id {player_id!r}, but player_id "
                            f"{state.to_move - 1} is to move")
    if event in TOWER_MOVES:
        return _checked(game, state, event, _tower_move(game, state, data, event))
    if state.step == PLACE:
        if event not in ("move_place_tile", "move_discard_tile"):
            raise IllegalAction(f"a tile placement is expected now, not {event}")
        k = _hand_tile(game, state, data, event)
        if event == "move_discard_tile":
            if game.any_placement(state):
                raise IllegalAction("move_discard_tile: a tile of your hand can be placed; "
                                    "discarding is only allowed when none fits (CARC-HAND-NOFIT)")
            return ("discard", k)
        tile = data["tile"]
        pos, rot = _field(tile, "pos", f"{event}.tile"), _field(tile, "rotation", f"{event}.tile")
        if not (isinstance(pos, list) and len(pos) == 2 and all(_int(v) for v in pos)):
            raise IllegalAction(f"{event}: pos {pos!r} is not [x, y] with two integers")
        if not _int(rot) or not 0 <= rot <= 3:
            raise IllegalAction(f"{event}: rotation {rot!r} is not 0, 1, 2 or 3")
        x, y = from_wire_pos(cfg, pos)
        if not (-LIMIT <= x <= LIMIT and -LIMIT <= y <= LIMIT):
            raise IllegalAction(f"{event}: pos {pos} is far from every placed tile")
        if not game.any_placement(state):
            raise IllegalAction(f"{event}: no tile of your hand fits anywhere; reply "
                                f"move_discard_tile (CARC-HAND-NOFIT)")
        cell = pack(x, y)
        why = game.placement_problem(state, k, cell, rot)
        if why:
            raise IllegalAction(f"{event}: pos {pos} (our {[x, y]}): {why}")
        return ("place", k, cell, rot)
    if event not in ("move_place_meeple", "move_place_meeple_pass"):
        raise IllegalAction(f"a claim or a pass is expected now, not {event}")
    if event == "move_place_meeple_pass":
        return PASS
    tile = _field(data, "tile", event)
    if not isinstance(tile, dict):
        raise IllegalAction(f"{event}: 'tile' must be the tile just placed")
    placed = to_wire_pos(cfg, unpack(state.placed))
    kind = cfg.t.ids[state.board[state.placed][0]]
    if tile.get("pos") != placed or tile.get("tile_type") != kind:
        raise IllegalAction(f"{event}: the tile must be the one just placed, {kind} at {placed}"
                            f" (CARC-CLAIM-PLACED-TILE)")
    where = _field(data, "placed_on", event)
    names = {**PLACED_ON, **(FIELD_PLACED_ON if cfg.farms else {})}
    if where not in names:
        raise IllegalAction(f"{event}: placed_on {where!r} is not one of "
                            f"{', '.join(names)}")
    return _checked(game, state, event, ("claim", game.claim_segment(state, names[where])))


def _checked(game: Judge, state: CarcState, event: str, action: Action) -> Action:
    """`action` if the rules allow it now, else IllegalAction naming the reply."""
    try:
        game.apply(state, action)
    except IllegalAction as exc:
        raise IllegalAction(f"{event}: {exc}") from None
    return action


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
    return ("tower", pos, cell, game.capture_segment(state, cell, names[where]))
