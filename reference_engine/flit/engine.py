"""Flit, played exactly as `spec/flit.json` says.

Internal actions are small tuples for speed; `action_to_json` / `action_from_json` give the
canonical JSON forms. Squares are indices `y * width + x`. Colours: 0 empty, 1-4 bots,
5 neutral.

The engine is a chain of classes, one module a job: `state.py` (the constants, the
configuration and the state record) under `moves.py` (`FlitMoves`: the board, legal moves,
chance, random play) under `steps.py` (`FlitSteps`: `apply`, each step's rule hooks, the
end); this module's `Flit` completes it with the contract's start, canonical JSON, `load`
and the referee, and re-exports the state layer's names (`__all__`), so code written against
`engine` keeps working. None of those modules imports this one.
"""

from __future__ import annotations

import re
from typing import Any

from gamecert.reference_engine.contract import (
    CHANCE,
    TERMINAL,
    BadState,
    IllegalAction,
    outcomes_json,
)
from gamecert.reference_engine.flit.state import (
    BOTS,
    EMPTY,
    INVALID,
    MOVE,
    NEUTRAL,
    NEUTRAL_STEP,
    OVER,
    PASS,
    SETUP,
    TIMEOUT,
    Action,
    FlitConfig,
    FlitState,
    neighbour_table,
)
from gamecert.reference_engine.flit.steps import FlitSteps
from gamecert.schemas import first_error
from gamecert.spec import Profile

__all__ = [
    "BOTS", "EMPTY", "INVALID", "MOVE", "NEUTRAL", "NEUTRAL_STEP", "OVER", "PASS", "SETUP",
    "TIMEOUT", "Action", "Flit", "FlitConfig", "FlitState", "neighbour_table",
]


class Flit(FlitSteps):
    """The Flit reference engine (`reference_engine.contract.Game`)."""

    name = "flit"

    # --- contract --------------------------------------------------------------------------
    def initial(self, profile: Profile, seed: int | None = None) -> FlitState:
        _width, _height = self.size(profile)
        cfg = self.config(profile)
        return FlitState(cfg, bytes(cfg.width * cfg.height), SETUP, 1, 0, 0,
                         (0, 0, 0, 0), (False, False, False, False))

    def current(self, state: FlitState) -> int:
        if state.phase == OVER:
            return TERMINAL
        if state.phase == MOVE:
            return state.to_move
        return CHANCE

    # --- canonical JSON ----------------------------------------------------------------
    def observe(self, state: FlitState) -> dict[str, Any]:
        return {
            "game": "flit", "profile": state.profile.id,
            "width": state.width, "height": state.height,
            "board": state.board.translate(_TO_TEXT).decode("ascii"),
            "phase": state.phase, "to_move": state.to_move or None, "turn": state.turn,
            "passes": state.passes, "timeouts": list(state.timeouts),
            "frozen": list(state.frozen), "result": state.result,
        }

    def chance_json(self, state: FlitState) -> list[Any]:
        """The chance listing as wire JSON, cached per state: the harness compares it often
        and shrinking revisits the same positions. Calls `self.chance`, so a subclass that
        changes the outcomes changes this too."""
        cache = self.__dict__.setdefault("_chance_cache", {})
        hit = cache.get(state)
        if hit is None:
            hit = outcomes_json(self, state)
            if len(cache) >= 64:
                cache.pop(next(iter(cache)))
            cache[state] = hit
        return list(hit)

    def load(self, profile: Profile, observed: Any) -> FlitState:
        return self._load(profile, observed, strict=True)

    def adopt(self, profile: Profile, observed: Any) -> FlitState:
        """An engine's state as it is, for the harness to go on from after a departure:
        any well-formed state of the profile's board, whether or not the rules could have
        reached it (a neutral that should have converted, a frozen bot to move)."""
        return self._load(profile, observed, strict=False)

    def _load(self, profile: Profile, observed: Any, strict: bool) -> FlitState:
        problem = _state_shape_error(observed)
        if problem:
            raise BadState(f"not a Flit state: {problem}")
        o = observed
        cfg = self.config(profile)
        width, height = cfg.width, cfg.height
        if (o["width"], o["height"]) != (width, height):
            raise BadState(f"board is {o['width']}x{o['height']}, profile {profile.id!r} "
                           f"plays {width}x{height}")
        if len(o["board"]) != width * height:
            raise BadState(f"board has {len(o['board'])} squares, expected {width * height}")
        board = o["board"].encode("ascii").translate(_FROM_TEXT)
        phase = o["phase"]
        if (phase == OVER) != (o["to_move"] is None):
            raise BadState("to_move must be null exactly when the game is over")
        if (phase == OVER) != (o["result"] is not None):
            raise BadState("result must be set exactly when the game is over")
        state = FlitState(cfg, board, phase, o["to_move"] or 0, o["turn"],
                          o["passes"], tuple(o["timeouts"]),
                          tuple(o["frozen"]), o["result"])
        if not strict:
            return state
        if phase == SETUP:
            placed = len(board) - board.count(EMPTY)
            total = len(BOTS) * cfg.pieces_per_bot  # FLIT-SETUP-ORDER
            if board.count(NEUTRAL) or placed >= total or \
                    o["to_move"] != self.setup_bot(placed):
                raise BadState(f"a setup state has no neutrals, fewer than {total} pieces, and "
                               f"the next bot in setup order to move")
        elif phase in (MOVE, NEUTRAL_STEP):
            for bot in BOTS:  # no piece of a bot's colour is ever captured (FLIT-CONVERT)
                if board.count(bot) < cfg.pieces_per_bot:
                    raise BadState(f"bot {bot} has fewer than {cfg.pieces_per_bot} pieces "
                                   f"outside setup")
            if phase == MOVE and state.frozen[state.to_move - 1]:
                raise BadState(f"bot {state.to_move} is frozen and cannot be to move")
        nbrs = neighbour_table(width, height)
        for i, c in enumerate(board):
            if c == NEUTRAL and any(board[n] for n in nbrs[i]):
                x, y = i % width, i // width
                raise BadState(f"neutral at ({x}, {y}) touches a piece: it would have converted")
        return state

    def action_to_json(self, state: FlitState, action: Action) -> dict[str, Any]:
        kind = action[0]
        w = state.cfg.width
        if kind == "move":
            return {"type": "move", "from": [action[1] % w, action[1] // w],
                    "to": [action[2] % w, action[2] // w]}
        if kind == "setup":
            return {"type": "setup", "at": [action[1] % w, action[1] // w]}
        if kind == "neutral":
            return {"type": "neutral", "at": [action[1] % w, action[1] // w], "hit": action[2]}
        if kind == "neutral-list":
            at = None if action[1] < 0 else [action[1] % w, action[1] // w]
            return {"type": "neutral-list", "at": at}
        return {"type": kind}

    def action_from_json(self, state: FlitState, data: Any) -> Action:
        # checked by hand, not by jsonschema: this runs on every step of every campaign
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise IllegalAction(f"not a Flit action (an object with a 'type'): {data!r:.200}")
        kind = data["type"]
        fields = _ACTION_FIELDS.get(kind)
        if fields is None:
            raise IllegalAction(f"unknown Flit action type {kind!r}")
        if set(data) != fields:
            raise IllegalAction(f"a {kind} action has exactly the fields {sorted(fields)}")

        def sq(xy: Any) -> int:
            if (not isinstance(xy, list) or len(xy) != 2
                    or not all(type(v) is int for v in xy)):
                raise IllegalAction(f"a square is [x, y] with whole numbers, not {xy!r:.100}")
            x, y = xy
            if not (0 <= x < state.width and 0 <= y < state.height):
                raise IllegalAction(f"square ({x}, {y}) is off the board")
            return int(y * state.width + x)

        if kind == "move":
            return ("move", sq(data["from"]), sq(data["to"]))
        if kind == "setup":
            return ("setup", sq(data["at"]))
        if kind == "neutral":
            if type(data["hit"]) is not bool:
                raise IllegalAction("neutral 'hit' is true or false")
            return ("neutral", sq(data["at"]), data["hit"])
        if kind == "neutral-list":
            return ("neutral-list", -1 if data["at"] is None else sq(data["at"]))
        return (kind,)

    def referee(self, state: FlitState, text: str) -> Action:
        """FLIT-PROTO-REPLY and FLIT-MOVE-INVALID: what a bot's raw reply line amounts to."""
        if state.phase != MOVE:
            raise IllegalAction("no bot is asked to move now")
        match = _REPLY.fullmatch(text)
        if match is None:
            return INVALID
        # leading zeros do not matter; more than 12 significant digits is off any board
        # (and keeps int() cheap)
        if any(len(g.lstrip("-").lstrip("0")) > 12 for g in match.groups()):
            return INVALID
        x0, y0, x1, y1 = (int(g) for g in match.groups())
        coords = self.reply_squares(state, x0, y0, x1, y1)
        if coords is None:
            return INVALID
        origin, dest = coords
        if origin == dest:
            return PASS
        try:
            self._move(state, origin, dest)
        except IllegalAction:
            return INVALID
        return ("move", origin, dest)

    def reply_squares(self, state: FlitState, x0: int, y0: int, x1: int,
                      y1: int) -> tuple[int, int] | None:
        w, h = state.width, state.height
        if not all(0 <= v < w for v in (x0, x1)) or not all(0 <= v < h for v in (y0, y1)):
            return None
        return y0 * w + x0, y1 * w + x1


_STATE_FIELDS = {"game", "profile", "width", "height", "board", "phase", "to_move", "turn",
                 "passes", "timeouts", "frozen", "result"}


def _state_shape_error(o: Any) -> str | None:
    """What makes `o` not shaped like schemas/flit-state.schema.json, or None.

    Checked by hand because load runs at every fuzzing start; the error for a bad shape
    then comes from the schema itself, which names the place.
    """
    ok = (isinstance(o, dict) and set(o) == _STATE_FIELDS and o["game"] == "flit"
          and isinstance(o["board"], str) and _BOARD.fullmatch(o["board"]) is not None
          and all(type(o[k]) is int and o[k] >= 0 for k in ("width", "height", "turn", "passes"))
          and o["phase"] in ("setup", "move", "neutral", "over")
          and (o["to_move"] is None or (type(o["to_move"]) is int and 1 <= o["to_move"] <= 4))
          and isinstance(o["timeouts"], list) and len(o["timeouts"]) == 4
          and all(type(v) is int and v >= 0 for v in o["timeouts"])
          and isinstance(o["frozen"], list) and len(o["frozen"]) == 4
          and all(type(v) is bool for v in o["frozen"])
          and (o["result"] is None or first_error("flit-state", o) is None))
    if ok and 3 <= o["width"] <= 256 and 3 <= o["height"] <= 256:
        return None
    return first_error("flit-state", o) or "width and height must be 3 to 256"


_BOARD = re.compile(r"[0-5]+", re.ASCII)
_ACTION_FIELDS = {
    "move": {"type", "from", "to"}, "pass": {"type"}, "timeout": {"type"}, "invalid": {"type"},
    "setup": {"type", "at"}, "neutral": {"type", "at", "hit"}, "neutral-list": {"type", "at"},
}
# FLIT-PROTO-REPLY: one line, four whole numbers in ASCII digits, spaces or tabs between
_REPLY = re.compile(r"[ \t]*(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]+(-?[0-9]+)"
                    r"[ \t]*(?:\r?\n)?", re.ASCII)

_TO_TEXT = bytes.maketrans(bytes(range(6)), b"012345")
_FROM_TEXT = bytes.maketrans(b"012345", bytes(range(6)))
