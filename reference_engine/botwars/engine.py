"""Bot Wars, played exactly as `spec/botwars.json` says.

A turn is simultaneous; the engine models it as two actions and a resolution: p1 sends its
list of moves (kept in the state, hidden from the bots), p2 sends its list, and the turn is
carried out in the seed's fixed order. When energy is due, a chance action places it.

The grid is kept as the protocol's own characters in a `bytes` (square = row * cols + col),
so `count` and `find` run at C speed and `observe` is a decode. Internal actions are tuples:

* ("moves", ((from, to), ...)): a bot's list as sent (any integers: invalid moves are the
  engine's to ignore, BOTWARS-MOVE-INVALID);
* ("bad-format",): the referee found the reply malformed (BOTWARS-FORMAT-DQ);
* ("timeout",): the bot did not reply in time (BOTWARS-TIME-LIMIT);
* ("energy", s): chance places energy on s and its mirror; s = -1 when no pair is free.

Each step of a turn is a small method, so a mutant that breaks one rule overrides one method.
The engine is a chain of classes, one module a job: `state.py` (the constants, the
configuration and the state record) under `moves.py` (`BotWarsMoves`: the field, what a list
is worth, legal lists, chance, random play) under `turn.py` (`BotWarsTurn`: `apply`, a turn's
steps, the end); this module's `BotWars` completes it with the contract's start, canonical
JSON, `load` and the referee, and re-exports the state layer's names (`__all__`), so code
written against `engine` keeps working. None of those modules imports this one.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable
from typing import Any

from gamecert.reference_engine.botwars.state import (
    BAD_FORMAT,
    BOT,
    DEAD,
    EMPTY,
    ENERGY,
    ENERGY_STEP,
    NAMES,
    OVER,
    P1,
    P2,
    TIMEOUT,
    Action,
    BotWarsConfig,
    BotWarsState,
    Checked,
    Invalid,
    Move,
    _is_int,
    dead_marker,
    neighbour_table,
)
from gamecert.reference_engine.botwars.turn import BotWarsTurn
from gamecert.reference_engine.contract import CHANCE, TERMINAL, BadState, IllegalAction
from gamecert.schemas import first_error
from gamecert.spec import Profile

__all__ = [
    "BAD_FORMAT", "BOT", "DEAD", "EMPTY", "ENERGY", "ENERGY_STEP", "NAMES", "OVER", "P1", "P2",
    "TIMEOUT", "Action", "BotWars", "BotWarsConfig", "BotWarsState", "Checked", "Invalid", "Move",
    "dead_marker", "neighbour_table",
]


def _whole(literal: str) -> int | float:
    """A JSON number written with a fraction or an exponent, read by its value: an int when
    it is whole (BOTWARS-FORMAT-DQ = integer-value; JSON's 1e2 is 100)."""
    value = float(literal)
    if math.isfinite(value) and value.is_integer():
        return int(value)
    return value


# The documents last found well formed, per schema, each with a copy: blame (fuzz.step.blame)
# loads one state, one action and the draws after it into every departure model in turn,
# and the schema check is most of a load's cost. A document met again (the same object,
# still equal to its copy: nobody changed it since) is not checked again.
_WELL_FORMED: dict[str, list[tuple[Any, Any]]] = {}
_KEPT = 8


def _schema_error(schema: str, doc: Any) -> str | None:
    """`first_error(schema, doc)`, a document met lately and unchanged checked once."""
    seen = _WELL_FORMED.setdefault(schema, [])
    if any(kept is doc and snap == doc for kept, snap in seen):
        return None
    problem = first_error(schema, doc)
    if problem is None:
        seen.append((doc, copy.deepcopy(doc)))
        if len(seen) > _KEPT:
            del seen[0]
    return problem


class BotWars(BotWarsTurn):
    """The Bot Wars reference engine (`reference_engine.contract.Game`)."""

    name = "botwars"

    # --- contract ------------------------------------------------------------------------
    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        cfg = BotWarsConfig.of(profile)
        grid = bytearray(EMPTY for _ in range(cfg.size))
        energy = cfg.initial_energy
        if cfg.first_on_field:  # BOTWARS-FIRST-BOTLETS: the first botlet is already paid for
            for side in (1, 2):
                grid[cfg.spawns[side]] = BOT[side]
            energy -= cfg.spawn_cost
        return BotWarsState(cfg, bytes(grid), P1, 0, (energy, energy), (False, False),
                            (False, False), (), 0, None)

    def current(self, state: BotWarsState) -> int:
        if state.phase == OVER:
            return TERMINAL
        if state.phase == ENERGY_STEP:
            return CHANCE
        return state.side

    # --- canonical JSON ----------------------------------------------------------------
    def observe(self, state: BotWarsState) -> dict[str, Any]:
        cfg = state.cfg

        def player(side: int) -> dict[str, Any]:
            return {"energy": state.energy[side - 1], "spawn": cfg.spawns[side],
                    "spawnDisabled": state.razed[side - 1],
                    "disqualified": state.dq[side - 1]}

        return {
            "game": "botwars", "profile": state.profile.id, "rows": cfg.rows, "cols": cfg.cols,
            "grid": state.grid.decode("ascii"), "p1": player(1), "p2": player(2),
            "maxTurns": cfg.max_turns, "turnsElapsed": state.turns, "phase": state.phase,
            "pending": ([{"from": f, "to": t} for f, t in state.pending]
                        if state.phase == P2 else None),
            "winner": NAMES[state.winner] or None, "endReason": state.end_reason,
        }

    def bot_view(self, state: BotWarsState, player: str, game_id: str = "") -> dict[str, Any]:
        """The original protocol's request for `player`: what a bot sees (never p1's pending
        moves, so the turn stays simultaneous)."""
        full = self.observe(state)
        keep = ("rows", "cols", "grid", "maxTurns", "turnsElapsed", "winner")
        view: dict[str, Any] = {"gameId": game_id, **{k: full[k] for k in keep}}
        for name in ("p1", "p2"):
            view[name] = {k: full[name][k] for k in ("energy", "spawn", "spawnDisabled")}
        return {"state": view, "player": player}

    def load(self, profile: Profile, observed: Any) -> BotWarsState:
        return self._load(profile, observed, strict=True)

    def adopt(self, profile: Profile, observed: Any) -> BotWarsState:
        """An engine's state as it is, for the harness to go on from after a departure:
        any well-formed state of the profile's field, whether or not the rules could have
        reached it (energy on a turn it is not due, a start without botlets, a pending list
        the rules call invalid)."""
        return self._load(profile, observed, strict=False)

    def _load(self, profile: Profile, observed: Any, strict: bool) -> BotWarsState:
        problem = _schema_error("botwars-state", observed)
        if problem:
            raise BadState(f"not a Bot Wars state: {problem}")
        o = observed
        cfg = BotWarsConfig.of(profile)
        if (o["rows"], o["cols"]) != (cfg.rows, cfg.cols):
            raise BadState(f"the field is {o['rows']}x{o['cols']}, profile {profile.id!r} "
                           f"plays {cfg.rows}x{cfg.cols}")
        if len(o["grid"]) != cfg.size:
            raise BadState(f"grid has {len(o['grid'])} squares, expected {cfg.size}")
        for side in (1, 2):
            if o[NAMES[side]]["spawn"] != cfg.spawns[side]:
                raise BadState(f"{NAMES[side]}.spawn is {o[NAMES[side]]['spawn']}, the "
                               f"profile puts it at {cfg.spawns[side]}")
        if o["maxTurns"] != cfg.max_turns:
            raise BadState(f"maxTurns is {o['maxTurns']}, the profile says {cfg.max_turns}")
        turns, phase = o["turnsElapsed"], o["phase"]
        if strict and (turns > cfg.max_turns or (turns == cfg.max_turns and phase != OVER)):
            raise BadState(f"turnsElapsed {turns} is past the turn limit but the game goes on")
        reason, winner_name = o["endReason"], o["winner"]
        if (phase == OVER) != (reason is not None):
            raise BadState("endReason must be set exactly when the phase is 'over'")
        if winner_name is not None and phase != OVER:
            raise BadState("a winner is named but the game is not over")
        dq = (o["p1"]["disqualified"], o["p2"]["disqualified"])
        if (reason == "disqualified") != (sum(dq) == 1):
            raise BadState("exactly one bot is disqualified exactly when endReason is "
                           "'disqualified'")
        if reason == "disqualified" and winner_name != NAMES[1 if dq[1] else 2]:
            raise BadState("the bot that was not disqualified must be the winner")
        if (phase == P2) != (o["pending"] is not None):
            raise BadState("pending is a list in phase 'p2' and null otherwise")
        if strict and phase == ENERGY_STEP and not self.energy_due(cfg, turns):
            raise BadState(f"energy is not due after turn {turns}")
        grid = o["grid"].encode("ascii")
        state = BotWarsState(
            cfg, grid, phase, turns, (o["p1"]["energy"], o["p2"]["energy"]),
            (o["p1"]["spawnDisabled"], o["p2"]["spawnDisabled"]), dq, (),
            {None: 0, "p1": 1, "p2": 2}[winner_name], reason)
        if not strict:
            return state._replace(pending=() if o["pending"] is None else tuple(
                (m["from"], m["to"]) for m in o["pending"]))
        if turns == 0:
            start = self.initial(profile)
            if (grid, state.energy, state.razed) != (start.grid, start.energy, start.razed):
                raise BadState("with turnsElapsed 0 the field and energy must be the start's "
                               "(BOTWARS-FIRST-BOTLETS)")
        for side in (1, 2):
            if grid[cfg.spawns[side]] == BOT[3 - side] and not state.razed[side - 1]:
                raise BadState(f"a {NAMES[3 - side]} botlet stands on {NAMES[side]}'s spawn "
                               "but it is not razed")
        if phase == OVER and reason in ("elimination", "turn-limit"):
            counts = self.counts(grid)
            if (reason == "elimination") != (0 in counts):
                raise BadState(f"endReason {reason!r} does not match the botlets on the "
                               f"field {list(counts)}")
        if phase == P2:
            moves = tuple((m["from"], m["to"]) for m in o["pending"])
            checked = self.check_moves(state._replace(phase=P1), 1, moves)
            if checked.invalid or list(moves) != sorted(set(moves)) or checked.stays:
                raise BadState("pending must list valid moves of p1, sorted by from")
            state = state._replace(pending=moves)
        return state

    def action_to_json(self, state: BotWarsState, action: Action) -> dict[str, Any]:
        kind = action[0]
        if kind == "moves":
            return {"type": "moves", "moves": [{"from": f, "to": t} for f, t in action[1]]}
        if kind == "energy":
            s = action[1]
            return {"type": "energy", "at": None if s < 0 else [s, state.cfg.size - 1 - s]}
        return {"type": kind}

    def action_from_json(self, state: BotWarsState, data: Any) -> Action:
        problem = _schema_error("botwars-action", data)
        if problem:
            raise IllegalAction(f"not a Bot Wars action: {problem}")
        kind = data["type"]
        if kind == "moves":
            moves = []
            for m in data["moves"]:
                if not (_is_int(m["from"]) and _is_int(m["to"])):
                    raise IllegalAction("from and to must be integers")
                moves.append((m["from"], m["to"]))
            return ("moves", tuple(moves))
        if kind == "energy":
            at = data["at"]
            if at is None:
                return ("energy", -1)
            if not (at[0] < at[1] and at[0] + at[1] == state.cfg.size - 1):
                raise IllegalAction(f"energy squares {at} are not a mirror pair [s, "
                                    f"{state.cfg.size - 1} - s] with s the smaller")
            return ("energy", at[0])
        return (kind,)

    # --- bots' replies -----------------------------------------------------------------
    def parse_reply(self, text: str) -> tuple[Move, ...] | None:
        """BOTWARS-FORMAT-DQ: a reply's moves, or None when its format is invalid (numbers
        written as integers only: integer-literal)."""
        return self._parse_reply(text, float)

    def parse_reply_by_value(self, text: str) -> tuple[Move, ...] | None:
        """BOTWARS-FORMAT-DQ = integer-value: as parse_reply, but a whole number written
        with a fraction or an exponent (101.0, 1e2) is that integer."""
        return self._parse_reply(text, _whole)

    def _parse_reply(self, text: str,
                     parse_float: Callable[[str], int | float]) -> tuple[Move, ...] | None:
        try:
            data = json.loads(text, parse_float=parse_float)
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, list):
            return None
        moves: list[Move] = []
        for item in data:
            if not isinstance(item, dict):
                return None
            f, t = item.get("from"), item.get("to")
            if not (_is_int(f) and _is_int(t)):
                return None
            moves.append((f, t))
        return tuple(moves)

    def referee(self, state: BotWarsState, text: str) -> Action:
        """What a bot's raw reply amounts to: a well-formed list as sent (apply then ignores
        its invalid moves, BOTWARS-MOVE-INVALID), or bad-format (BOTWARS-FORMAT-DQ)."""
        if state.side == 0:
            raise IllegalAction("no bot is asked to move now")
        moves = (self.parse_reply_by_value(text) if state.cfg.number_values
                 else self.parse_reply(text))
        return BAD_FORMAT if moves is None else ("moves", moves)
