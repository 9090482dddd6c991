"""Flit, played exactly as `spec/flit.json` says.

Internal actions are small tuples for speed; `action_to_json` / `action_from_json` give the
canonical JSON forms. Squares are indices `y * width + x`. Colours: 0 empty, 1-4 bots,
5 neutral.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple, TypeVar

from gamecert.reference_engine.contract import (
    CHANCE,
    TERMINAL,
    BadState,
    IllegalAction,
    Outcome,
    outcomes_json,
)
from gamecert.reference_engine.flit import rules
from gamecert.schemas import first_error
from gamecert.spec import Profile

EMPTY, NEUTRAL = 0, 5
BOTS = (1, 2, 3, 4)
SETUP, MOVE, NEUTRAL_STEP, OVER = "setup", "move", "neutral", "over"

Action = tuple[Any, ...]
PASS: Action = ("pass",)
TIMEOUT: Action = ("timeout",)
INVALID: Action = ("invalid",)


@cache
def neighbour_table(width: int, height: int) -> tuple[tuple[int, int, int, int], ...]:
    """The four torus neighbours (N, E, S, W) of every square."""
    table = []
    for y in range(height):
        for x in range(width):
            table.append((((y - 1) % height) * width + x, y * width + (x + 1) % width,
                          ((y + 1) % height) * width + x, y * width + (x - 1) % width))
    return tuple(table)


@dataclass(frozen=True)
class FlitConfig:
    """A profile's parameters and chosen variants, resolved once."""

    profile: Profile
    width: int
    height: int
    hit_denominator: int
    list_denominator: int
    list_neutrals: bool  # FLIT-NEUTRAL-ADD = list-1-in-6
    invalid_disqualifies: bool  # FLIT-MOVE-INVALID = disqualify
    frozen_turn_skipped: bool  # FLIT-FREEZE = skipped
    freeze_after: int
    allpass_any: bool  # FLIT-END-ALLPASS = any-no-move
    max_turns: int
    cap_literal: bool  # FLIT-END-TURNCAP = literal-exceeds
    end_after_move: bool  # FLIT-END-TIMING = after-move
    p_offset: int
    pieces_per_bot: int

    @staticmethod
    def of(profile: Profile) -> FlitConfig:
        return _config(profile)


@cache
def _config(profile: Profile) -> FlitConfig:
    p, v = profile.param, profile.variant
    return FlitConfig(
        profile, p("FLIT-BOARD-SIZE", "width"), p("FLIT-BOARD-SIZE", "height"),
        p("FLIT-NEUTRAL-ADD", "hit_denominator"), p("FLIT-NEUTRAL-ADD", "list_denominator"),
        v("FLIT-NEUTRAL-ADD") == "list-1-in-6", v("FLIT-MOVE-INVALID") == "disqualify",
        v("FLIT-FREEZE") == "skipped", p("FLIT-FREEZE", "consecutive_timeouts"),
        v("FLIT-END-ALLPASS") == "any-no-move", p("FLIT-END-TURNCAP", "max_turns"),
        v("FLIT-END-TURNCAP") == "literal-exceeds", v("FLIT-END-TIMING") == "after-move",
        p("FLIT-END-CATCHUP", "p_offset"), p("FLIT-SETUP-ORDER", "pieces_per_bot"))


class FlitState(NamedTuple):
    cfg: FlitConfig
    board: bytes
    phase: str
    to_move: int  # the bot whose turn it is (or whose setup piece is next); 0 when over
    turn: int  # turns whose move (or no move) has been made
    passes: int  # the current run of turns without a real move
    timeouts: tuple[int, int, int, int]
    frozen: tuple[bool, bool, bool, bool]
    result: dict[str, Any] | None = None

    @property
    def profile(self) -> Profile:
        return self.cfg.profile

    @property
    def width(self) -> int:
        return self.cfg.width

    @property
    def height(self) -> int:
        return self.cfg.height


class Flit:
    """The Flit reference engine (`reference_engine.contract.Game`)."""

    name = "flit"

    # --- parameters ----------------------------------------------------------------------
    def config(self, profile: Profile) -> FlitConfig:
        return FlitConfig.of(profile)

    def size(self, profile: Profile) -> tuple[int, int]:
        cfg = FlitConfig.of(profile)
        return cfg.width, cfg.height

    def neighbours(self, state: FlitState) -> tuple[tuple[int, int, int, int], ...]:
        cfg = state.cfg
        return neighbour_table(cfg.width, cfg.height)

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

    def available(self, state: FlitState, square: int) -> bool:
        board = state.board
        if board[square] != EMPTY:
            return False
        a, b, c, d = self.neighbours(state)[square]
        return not (board[a] or board[b] or board[c] or board[d])

    def available_squares(self, state: FlitState) -> list[int]:
        return [i for i, free in enumerate(self.available_mask(state)) if free]

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        """FLIT-MOVE-VALID: a piece of `bot` other than the one at `origin` touches `dest`."""
        board = state.board
        return any(n != origin and board[n] == bot for n in self.neighbours(state)[dest])

    def pieces(self, state: FlitState, colour: int) -> list[int]:
        out, board, i = [], state.board, state.board.find(colour)
        while i >= 0:
            out.append(i)
            i = board.find(colour, i + 1)
        return out

    def legal(self, state: FlitState) -> list[Action]:
        if state.phase != MOVE:
            return []
        touching = self._touching(state)
        actions: list[Action] = [PASS]
        for o in self.pieces(state, state.to_move):
            actions.extend(("move", o, d) for d in self._destinations(state, o, touching))
        return actions

    def destinations(self, state: FlitState, origin: int) -> list[int]:
        """FLIT-MOVE-VALID: where the piece at `origin` may go (sorted)."""
        return self._destinations(state, origin, self._touching(state))

    def _touching(self, state: FlitState) -> dict[int, int]:
        """How many pieces of the bot to move touch each empty square."""
        bot, board, nbrs = state.to_move, state.board, self.neighbours(state)
        touching: dict[int, int] = {}
        for q in self.pieces(state, bot):
            for n in nbrs[q]:
                if board[n] == EMPTY:
                    touching[n] = touching.get(n, 0) + 1
        return touching

    def _destinations(self, state: FlitState, origin: int, touching: dict[int, int]) -> list[int]:
        near_o = self.neighbours(state)[origin]
        return sorted(d for d, count in touching.items()
                      if count > 1 or d not in near_o
                      or self.has_other_own_neighbour(state, origin, d, state.to_move))

    def chance(self, state: FlitState) -> list[Outcome[Action]]:
        if state.phase == SETUP:
            squares = self.available_squares(state)
            p = Fraction(1, len(squares))
            return [Outcome(("setup", s), p) for s in squares]
        if state.phase != NEUTRAL_STEP:
            return []
        if state.cfg.list_neutrals:
            squares = self.available_squares(state)
            if not squares:
                return [Outcome(("neutral-list", -1), Fraction(1))]
            k = state.cfg.list_denominator
            each = Fraction(1, k * len(squares))
            return [Outcome(("neutral-list", -1), Fraction(k - 1, k))] + [
                Outcome(("neutral-list", s), each) for s in squares]
        hit, miss, unavailable = _square_outcomes(len(state.board), state.cfg.hit_denominator)
        out: list[Outcome[Action]] = []
        append = out.append
        for s, free in enumerate(self.available_mask(state)):
            if free:
                append(hit[s])
                append(miss[s])
            else:
                append(unavailable[s])
        return out

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

    def available_mask(self, state: FlitState) -> list[bool]:
        """`available` for every square at once (the chance listing's hot loop)."""
        b = state.board
        return [not (b[i] or b[n0] or b[n1] or b[n2] or b[n3])
                for i, (n0, n1, n2, n3) in enumerate(self.neighbours(state))]

    def random_chance(self, state: FlitState, rng: random.Random) -> Action:
        """Draw a chance outcome with its true probability, without listing them all."""
        if state.phase == SETUP:
            return ("setup", rng.choice(self.available_squares(state)))
        if state.cfg.list_neutrals:
            k = state.cfg.list_denominator
            squares = self.available_squares(state)
            if not squares or rng.randrange(k):
                return ("neutral-list", -1)
            return ("neutral-list", rng.choice(squares))
        s = rng.randrange(len(state.board))
        k = state.cfg.hit_denominator
        return ("neutral", s, self.available(state, s) and rng.randrange(k) == 0)

    def random_action(self, state: FlitState, rng: random.Random, tries: int = 16) -> Action:
        """A random legal action of the bot to move, for fast random play.

        Draws an origin piece, another own piece and one of its neighbours; an empty
        neighbour is a legal destination by FLIT-MOVE-VALID. Falls back to the full legal
        list when sampling keeps missing, so every legal state still yields a legal action.
        """
        bot, board = state.to_move, state.board
        nbrs = self.neighbours(state)
        size, rand = len(board), rng.random
        for _ in range(tries):
            # the first own piece at or after a random square (wrapping): cheap, C-speed find
            o = board.find(bot, int(rand() * size))
            o = board.find(bot) if o < 0 else o
            q = board.find(bot, int(rand() * size))
            q = board.find(bot) if q < 0 else q
            if o != q:
                d = nbrs[q][int(rand() * 4)]
                if board[d] == EMPTY:
                    return ("move", o, d)
        return rng.choice(self.legal(state))

    # --- transitions -------------------------------------------------------------------
    def apply(self, state: FlitState, action: Action) -> tuple[FlitState, list[Any]]:
        kind = action[0] if isinstance(action, tuple) and action else None
        if state.phase == OVER:
            raise IllegalAction("the game is over")
        if state.phase == SETUP:
            if kind != "setup":
                raise IllegalAction(f"a setup square is due, not {kind!r}")
            return self._setup(state, action[1])
        if state.phase == MOVE:
            if kind == "move":
                return self._move(state, action[1], action[2])
            if kind in ("pass", "timeout", "invalid"):
                return self._no_move(state, kind)
            raise IllegalAction(f"bot {state.to_move} must move, not {kind!r}")
        if kind == "neutral" and not state.cfg.list_neutrals:
            return self._neutral(state, action[1], action[2])
        if kind == "neutral-list" and state.cfg.list_neutrals:
            return self._neutral(state, action[1], action[1] >= 0)
        raise IllegalAction(f"a neutral-step outcome is due, not {kind!r}")

    def _xy(self, state: FlitState, square: int) -> list[int]:
        return [square % state.width, square // state.width]

    def _setup(self, state: FlitState, square: int) -> tuple[FlitState, list[Any]]:
        if not (0 <= square < len(state.board)) or not self.setup_allowed(state, square):
            raise IllegalAction(f"setup square {square} is not available")
        board = bytearray(state.board)
        board[square] = state.to_move
        placed = len(state.board) - state.board.count(EMPTY) + 1
        per_bot = state.cfg.pieces_per_bot
        events = [{"type": "piece-placed", "rule": "FLIT-SETUP-AVAILABLE", "bot": state.to_move,
                   "at": self._xy(state, square)}]
        if placed == per_bot * len(BOTS):
            return state._replace(board=bytes(board), phase=MOVE, to_move=1), events
        return state._replace(board=bytes(board), to_move=self.setup_bot(placed)), events

    def setup_allowed(self, state: FlitState, square: int) -> bool:
        """FLIT-SETUP-AVAILABLE: initial pieces only go on available squares."""
        return self.available(state, square)

    def setup_bot(self, placed: int) -> int:
        """FLIT-SETUP-ORDER: the bot that receives the next piece after `placed` pieces."""
        return placed % len(BOTS) + 1

    def _move(self, state: FlitState, origin: int, dest: int) -> tuple[FlitState, list[Any]]:
        bot, size = state.to_move, len(state.board)
        if not (0 <= origin < size and 0 <= dest < size):
            raise IllegalAction("square off the board")
        if origin == dest:
            raise IllegalAction("origin equals destination: that is a pass")
        if state.board[origin] != bot:
            raise IllegalAction(f"origin holds no piece of bot {bot}")
        if state.board[dest] != EMPTY:
            raise IllegalAction("destination is not empty")
        if not self.has_other_own_neighbour(state, origin, dest, bot):
            raise IllegalAction("destination touches no other piece of the bot")
        board = bytearray(state.board)
        board[origin], board[dest] = EMPTY, bot
        events: list[Any] = [{"type": "moved", "rule": "FLIT-MOVE-VALID", "bot": bot,
                              "from": self._xy(state, origin), "to": self._xy(state, dest)}]
        for n in self.convertible(state, dest):
            if board[n] == NEUTRAL:
                board[n] = bot
                event = self.conversion_event(state, bot, n)
                if event is not None:
                    events.append(event)
        after = state._replace(board=bytes(board), turn=state.turn + 1,
                               passes=self.passes_after_move(state),
                               timeouts=self.answered_in_time(state.timeouts, bot))
        return self._after_move(after, events)

    def conversion_event(self, state: FlitState, bot: int, square: int) -> dict[str, Any] | None:
        """FLIT-PROTO-UPDATES: every conversion is announced, so bots can track the board."""
        return {"type": "converted", "rule": "FLIT-CONVERT", "bot": bot,
                "at": self._xy(state, square)}

    def passes_after_move(self, state: FlitState) -> int:
        """FLIT-END-ALLPASS: a real move ends the run of no moves."""
        return 0

    def answered_in_time(self, timeouts: tuple[int, int, int, int],
                         bot: int) -> tuple[int, int, int, int]:
        """FLIT-TIME-LIMIT: any reply in time resets the bot's run of time-outs."""
        return _set(timeouts, bot, 0)

    def freezes(self, cfg: FlitConfig, run: int) -> bool:
        """FLIT-FREEZE: a run of this many time-outs freezes the bot."""
        return run >= cfg.freeze_after

    def invalid_disqualifies(self, cfg: FlitConfig) -> bool:
        """FLIT-MOVE-INVALID under the chosen variant."""
        return cfg.invalid_disqualifies

    def convertible(self, state: FlitState, dest: int) -> tuple[int, ...]:
        """FLIT-CONVERT: squares whose neutral the piece arriving at `dest` converts."""
        return self.neighbours(state)[dest]

    def _no_move(self, state: FlitState, cause: str) -> tuple[FlitState, list[Any]]:
        bot = state.to_move
        frozen, timeouts = state.frozen, state.timeouts
        events: list[Any] = []
        rule = {"pass": "FLIT-MOVE-NOMOVE", "timeout": "FLIT-TIME-LIMIT",
                "invalid": "FLIT-MOVE-INVALID"}[cause]
        events.append({"type": "no-move", "rule": rule, "bot": bot, "cause": cause})
        if cause == "timeout":
            timeouts = self.count_timeout(timeouts, bot)
            if self.freezes(state.cfg, timeouts[bot - 1]):
                frozen = _set(frozen, bot, True)
                events.append({"type": "frozen", "rule": "FLIT-FREEZE", "bot": bot,
                               "cause": "timeouts"})
        else:
            timeouts = self.answered_in_time(timeouts, bot)
            if cause == "invalid" and self.invalid_disqualifies(state.cfg):
                frozen = _set(frozen, bot, True)
                events.append({"type": "frozen", "rule": "FLIT-MOVE-INVALID", "bot": bot,
                               "cause": "invalid-move"})
        after = state._replace(turn=state.turn + 1, passes=self.next_passes(state, cause),
                        timeouts=timeouts, frozen=frozen)
        return self._after_move(after, events)

    def count_timeout(self, timeouts: tuple[int, int, int, int],
                      bot: int) -> tuple[int, int, int, int]:
        """FLIT-TIME-LIMIT: a time-out extends the bot's run of time-outs."""
        return _set(timeouts, bot, timeouts[bot - 1] + 1)

    def next_passes(self, state: FlitState, cause: str) -> int:
        """FLIT-END-ALLPASS: the run of turns without a real move, after a no move."""
        if cause == "pass" or state.cfg.allpass_any:
            return state.passes + 1
        return 0

    def _after_move(self, state: FlitState, events: list[Any]) -> tuple[FlitState, list[Any]]:
        if state.cfg.end_after_move:
            ended = self._check_end(state, events)
            if ended is not None:
                return ended, events
        return state._replace(phase=NEUTRAL_STEP), events

    def _neutral(self, state: FlitState, square: int, hit: bool) -> tuple[FlitState, list[Any]]:
        if not 0 <= square < len(state.board) and not (square == -1 and not hit):
            raise IllegalAction("neutral square off the board")
        events: list[Any] = []
        board = state.board
        if hit:
            if not self.neutral_allowed(state, square):
                raise IllegalAction(f"square {square} is not available for a neutral")
            b = bytearray(board)
            b[square] = NEUTRAL
            board = bytes(b)
            events.append({"type": "neutral-added", "rule": "FLIT-NEUTRAL-ADD",
                           "at": self._xy(state, square)})
        elif square >= 0 and state.cfg.list_neutrals:
            raise IllegalAction("a listed square with no neutral is not an outcome")
        after = state._replace(board=board)
        if not state.cfg.end_after_move:
            ended = self._check_end(after, events)
            if ended is not None:
                return ended, events
        return self._advance(after, events), events

    def neutral_allowed(self, state: FlitState, square: int) -> bool:
        """FLIT-NEUTRAL-ADD: neutrals only go on available squares."""
        return self.available(state, square)

    def _advance(self, state: FlitState, events: list[Any]) -> FlitState:
        """FLIT-TURN-ORDER and FLIT-FREEZE: hand the turn on."""
        nxt = self.next_bot(state.to_move)
        if not state.frozen[nxt - 1]:
            return state._replace(phase=MOVE, to_move=nxt)
        if not state.cfg.frozen_turn_skipped:
            events.append({"type": "no-move", "rule": "FLIT-FREEZE", "bot": nxt, "cause": "frozen"})
            frozen_turn = state._replace(to_move=nxt, turn=state.turn + 1,
                                  passes=self.next_passes(state, "frozen"))
            return self._after_move(frozen_turn, events)[0]
        for _ in BOTS:
            if not state.frozen[nxt - 1]:
                return state._replace(phase=MOVE, to_move=nxt)
            nxt = self.next_bot(nxt)
        return self._finish(state, ["all-pass"], events)

    def next_bot(self, bot: int) -> int:
        return bot % len(BOTS) + 1

    # --- the end -----------------------------------------------------------------------
    def counts(self, state: FlitState) -> list[int]:
        return [state.board.count(b) for b in BOTS]

    def cannot_be_caught(self, cfg: FlitConfig, d: Any, a: Any, b: Any, c: Any, n: Any,
                         e: Any, max2: rules.Max2 = max) -> Any:
        """FLIT-END-CATCHUP, as the engine decides it (proved by `gamecert prove flit`)."""
        return rules.cannot_be_caught(d, a, b, c, n, e, cfg.p_offset, max2)

    def catchup_reached(self, cfg: FlitConfig, counts: list[Any], n: Any, e: Any,
                        max2: rules.Max2 = max, any_of: rules.AnyOf = any) -> Any:
        """FLIT-END-CATCHUP over all four bots; runs on ints and on z3 terms alike."""
        ends = []
        for i, d in enumerate(counts):
            a, b, c = counts[:i] + counts[i + 1:]
            ends.append(self.cannot_be_caught(cfg, d, a, b, c, n, e, max2))
        return any_of(ends)

    def turn_cap_reached(self, state: FlitState) -> bool:
        cap = state.cfg.max_turns
        return state.turn > cap if state.cfg.cap_literal else state.turn >= cap

    def end_reasons(self, state: FlitState) -> list[str]:
        counts = self.counts(state)
        n, e = state.board.count(NEUTRAL), state.board.count(EMPTY)
        reasons = []
        if self.catchup_reached(state.cfg, counts, n, e):
            reasons.append("catch-up")
        active = 4
        if state.cfg.frozen_turn_skipped:
            active = 4 - sum(state.frozen)
        if state.passes >= active:
            reasons.append("all-pass")
        if self.turn_cap_reached(state):
            reasons.append("turn-cap")
        return reasons

    def _check_end(self, state: FlitState, events: list[Any]) -> FlitState | None:
        reasons = self.end_reasons(state)
        return self._finish(state, reasons, events) if reasons else None

    def winner(self, counts: list[int]) -> int | None:
        """FLIT-WINNER and FLIT-WINNER-TIE."""
        best = max(counts)
        return counts.index(best) + 1 if counts.count(best) == 1 else None

    def _finish(self, state: FlitState, reasons: list[str], events: list[Any]) -> FlitState:
        counts = self.counts(state)
        result = {"reasons": reasons, "counts": counts, "winner": self.winner(counts)}
        rule = {"catch-up": "FLIT-END-CATCHUP", "all-pass": "FLIT-END-ALLPASS",
                "turn-cap": "FLIT-END-TURNCAP"}[reasons[0]]
        events.append({"type": "game-ended", "rule": rule, **result})
        return state._replace(phase=OVER, to_move=0, result=result)

    def scores(self, state: FlitState) -> list[int]:
        return self.counts(state)

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


@cache
def _square_probabilities(total: int, k: int) -> tuple[Fraction, Fraction, Fraction]:
    """FLIT-NEUTRAL-ADD: P(square s and a neutral), P(square s, no neutral), P(square s
    unavailable)."""
    return Fraction(1, total * k), Fraction(k - 1, total * k), Fraction(1, total)


@cache
def _square_outcomes(total: int, k: int) -> tuple[tuple[Outcome[Action], ...], ...]:
    """FLIT-NEUTRAL-ADD's outcomes for each square, made once per board size and
    denominator: (a neutral on it, no neutral on an available square, no neutral on an
    unavailable one). Outcomes are immutable, so every listing shares them; building
    2,048 of them anew at every neutral step was most of the step's cost."""
    p_hit, p_miss, p_unavailable = _square_probabilities(total, k)
    return (tuple(Outcome(("neutral", s, True), p_hit) for s in range(total)),
            tuple(Outcome(("neutral", s, False), p_miss) for s in range(total)),
            tuple(Outcome(("neutral", s, False), p_unavailable) for s in range(total)))


_BOARD = re.compile(r"[0-5]+", re.ASCII)
_ACTION_FIELDS = {
    "move": {"type", "from", "to"}, "pass": {"type"}, "timeout": {"type"}, "invalid": {"type"},
    "setup": {"type", "at"}, "neutral": {"type", "at", "hit"}, "neutral-list": {"type", "at"},
}
# FLIT-PROTO-REPLY: one line, four whole numbers in ASCII digits, spaces or tabs between
_REPLY = re.compile(r"[ \t]*(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]+(-?[0-9]+)[ \t]+(-?[0-9]+)"
                    r"[ \t]*(?:\r?\n)?", re.ASCII)


T = TypeVar("T")


def _set(values: tuple[T, T, T, T], bot: int, value: T) -> tuple[T, T, T, T]:
    """The per-bot tuple with bot's entry replaced."""
    out = list(values)
    out[bot - 1] = value
    return out[0], out[1], out[2], out[3]


_TO_TEXT = bytes.maketrans(bytes(range(6)), b"012345")
_FROM_TEXT = bytes.maketrans(b"012345", bytes(range(6)))
