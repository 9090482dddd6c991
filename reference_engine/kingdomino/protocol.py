"""The Coders of the Realm line protocol (KD-PROTO-INPUT, KD-PROTO-OUTPUT): what a bot reads
and what its two output lines amount to.

`game_start` and `turn_input` write the bytes a bot reads, exactly in the statement's
format; `referee` reads the bot's two lines and returns the engine action the rules make of
them (a play, an invalid PUT, or the end of the player's game). A bot-check codec uses these
three and the time limits of `limits_ms`; nothing here starts processes or keeps time.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from gamecert.reference_engine.contract import IllegalAction
from gamecert.reference_engine.kingdomino.state import PLAY, Action, KdState, N, Put


class Kingdomino(Protocol):
    """What the protocol asks of the engine, which passes itself in (so this module never
    imports it: data flows one way, state -> protocol -> engine)."""

    def last_turn(self, state: KdState) -> bool: ...

    def pick_error(self, state: KdState, pick: Any) -> str | None: ...

    def placement_error(self, state: KdState, grid: str, tile: int, put: Put) -> str | None: ...

    def fits_somewhere(self, state: KdState, grid: str, tile: int) -> bool: ...

# KD-PROTO-OUTPUT: "PUT x y rotation" and "PICK tileId" with an optional message after it
PUT_LINE = re.compile(r"PUT (-?[0-9]{1,9}) (-?[0-9]{1,9}) (-?[0-9]{1,9})", re.ASCII)
PICK_LINE = re.compile(r"PICK (-?[0-9]{1,9})(?: [^\n]*)?", re.ASCII)
EMPTY_PLACED = "-1 _0 _0 -1 0"
EMPTY_PICK = "-1 _0 _0 -1"


def limits_ms(state: KdState, first: bool) -> int:
    """KD-PROTO-LIMITS: the reply time limit of a bot's first turn or a later one."""
    key = "first_ms" if first else "turn_ms"
    return int(state.profile.param("KD-PROTO-LIMITS", key))


def relative(player: int, viewer: int, players: int) -> int:
    """The protocol's player id of `player` as `viewer` sees it: you are always 0."""
    return (player - viewer) % players


def game_start(state: KdState) -> str:
    """The start-of-game lines: nbPlayers, nbTiles."""
    return f"{state.cfg.players}\n{state.cfg.line}\n"


def turn_input(game: Kingdomino, state: KdState, viewer: int) -> str:
    """Every line the bot of `viewer` reads before its PUT + PICK, in the statement's order."""
    if state.phase != PLAY:
        raise IllegalAction("no king is asked to play now")
    n = state.cfg.players
    lines: list[str] = []
    for k in range(n):
        g = state.grids[(viewer - 1 + k) % n]
        lines.extend(g[2 * N * r:2 * N * (r + 1)] for r in range(N))
    tiles = state.cfg.tiles
    slots = state.cfg.line
    placed = [f"{t} {tiles[t][0]} {tiles[t][1]} {relative(o, viewer, n)} "
              f"{1 if i == state.nxt else 0}"
              for i, (t, o) in enumerate(state.placing) if t]
    picks = [f"{t} {tiles[t][0]} {tiles[t][1]} {relative(o, viewer, n) if o else -1}"
             for t, o in state.line]
    if state.profile.variant("KD-PROTO-INPUT") == "placeholder":
        placed += [EMPTY_PLACED] * (slots - len(placed))
        picks += [EMPTY_PICK] * (slots - len(picks))
    return "\n".join(lines + placed + picks) + "\n"


def referee(game: Kingdomino, state: KdState, text: str) -> Action:
    """KD-PROTO-OUTPUT, KD-STOP, KD-PUT-INVALID: the two output lines of the king to act."""
    if state.phase != PLAY:
        raise IllegalAction("no king is asked to play now")
    if not isinstance(text, str):
        return ("stop", "format")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    if len(lines) != 2:
        return ("stop", "format")
    put_m, pick_m = PUT_LINE.fullmatch(lines[0]), PICK_LINE.fullmatch(lines[1])
    if put_m is None or pick_m is None:
        return ("stop", "format")
    tile, owner = state.placing[state.nxt]
    last = game.last_turn(state)
    pick = None if last else int(pick_m.group(1))
    put = None
    invalid_put = False
    if tile and state.turn > 1:
        grid = state.grids[owner - 1]
        if game.fits_somewhere(state, grid, tile):
            want = (int(put_m.group(1)), int(put_m.group(2)), int(put_m.group(3)))
            if game.placement_error(state, grid, tile, want) is None:
                put = want
            else:
                invalid_put = True
    if invalid_put and not state.cfg.put_discards:
        return ("stop", "put")
    if game.pick_error(state, pick) is not None:
        return ("stop", "pick")
    if invalid_put:
        return ("invalid-put", pick)
    return ("play", put, pick)
