"""A Flit step played: `apply` takes a set-up square, a move or no move (pass, time-out,
invalid reply) or a neutral-step outcome; each rule decision of a step is a small method a
mutant overrides (conversion, the runs of passes and time-outs, freezing, the turn order),
and the end (catch-up, all-pass, the turn cap, the winner).

`FlitSteps` builds on the legal moves (`moves.py`) and is built on by `engine.py`'s `Flit`.
It knows actions as internal tuples only: their JSON forms and the referee are
`engine.py`'s.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.contract import (
    IllegalAction,
)
from gamecert.reference_engine.flit import rules
from gamecert.reference_engine.flit.moves import FlitMoves
from gamecert.reference_engine.flit.state import (
    BOTS,
    EMPTY,
    MOVE,
    NEUTRAL,
    NEUTRAL_STEP,
    OVER,
    SETUP,
    Action,
    FlitConfig,
    FlitState,
    _set,
)


class FlitSteps(FlitMoves):
    """A step played, and the end (see the module docstring)."""

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
