"""Flit's one-rule departures: what an engine that breaks exactly one rule does instead.

Each class is the reference engine with one hook (or one piece of logic) changed, so it
breaks one rule of `spec/flit.json` and follows every other. The public mutants of
`examples/engines/flit/` are these classes (each example module imports its own from here),
and `MODELS` lists the ones blame by counterfactual replays a departing step under
(`fuzz.step.blame`: a model whose state after the step equals the engine's names the rule and
the kind of departure). Besides the public mutants, it holds the departures real engines
are known to make or are likely to (a piece that may only step to a neighbouring square,
each bot's set-up pieces dealt together, conversions of diagonal neutrals, an all-pass
end after three no moves or none at all, ...).

Left out of `MODELS`: departures that the catalogue already models (another reading of an
open rule, a rule parameter moved to a neighbouring value: `fuzz.step.blame` makes those from
the catalogue itself), and departures that change nothing a state shows (the weights of
the chance listing, a referee's reading of bot text, an event left out): replaying a step
cannot tell them from the reference.

This module must not import the harness (fuzz), the oracles or the examples.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from gamecert.reference_engine.contract import IllegalAction, Outcome
from gamecert.reference_engine.flit.engine import (
    NEUTRAL,
    Action,
    Flit,
    FlitConfig,
    FlitState,
)
from gamecert.reference_engine.flit.rules import Max2
from gamecert.spec import Profile

# --- FLIT-BOARD-SIZE -------------------------------------------------------------------


class BoardShort(Flit):
    """The board is one row short: 32 x 31 (the catalogue's parameter model height = 31)."""

    def config(self, profile: Profile) -> FlitConfig:
        return dataclasses.replace(FlitConfig.of(profile), height=31)


def _diagonals(state: FlitState, square: int) -> tuple[int, ...]:
    w, h = state.width, state.height
    x, y = square % w, square // w
    return tuple(((y + dy) % h) * w + (x + dx) % w for dx, dy in ((1, 1), (1, -1), (-1, 1),
                                                                  (-1, -1)))


# --- FLIT-BOARD-TORUS ------------------------------------------------------------------


def _planar(state: FlitState, a: int, b: int, wrap_x: bool, wrap_y: bool) -> bool:
    """Squares a and b, neighbours on the torus, are neighbours without the wraps left
    out (`wrap_x`: left-right kept; `wrap_y`: top-bottom kept)."""
    w = state.width
    ax, ay, bx, by = a % w, a // w, b % w, b // w
    return (wrap_x or abs(ax - bx) <= 1) and (wrap_y or abs(ay - by) <= 1)


class NoWrapX(Flit):
    """Move adjacency forgets to wrap left-right."""

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        w, board, x = state.width, state.board, dest % state.width
        return any(n != origin and board[n] == bot and abs(n % w - x) <= 1
                   for n in self.neighbours(state)[dest])


class NoWrapY(Flit):
    """Move adjacency forgets to wrap top-bottom."""

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        board = state.board
        return any(n != origin and board[n] == bot and _planar(state, n, dest, True, False)
                   for n in self.neighbours(state)[dest])


class NoWrap(Flit):
    """Move adjacency stops at every edge: a flat board."""

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        board = state.board
        return any(n != origin and board[n] == bot and _planar(state, n, dest, False, False)
                   for n in self.neighbours(state)[dest])


# --- FLIT-SETUP-AVAILABLE and FLIT-SETUP-ORDER -------------------------------------------


class SetupAnyEmpty(Flit):
    """Initial pieces may go on any empty square."""

    def setup_allowed(self, state: FlitState, square: int) -> bool:
        return state.board[square] == 0


class SetupSnake(Flit):
    """Second initial pieces are dealt in reverse (snake) order."""

    def setup_bot(self, placed: int) -> int:
        return placed + 1 if placed < 4 else 8 - placed


class SetupBotByBot(Flit):
    """Each bot gets all its initial pieces at once: 1, 1, 2, 2, 3, 3, 4, 4 (a loop over the
    bots with a loop over their pieces inside)."""

    def setup_bot(self, placed: int) -> int:
        return placed // 2 % 4 + 1


class LastPlacerFirst(Flit):
    """Play starts with the bot that placed the last initial piece (bot 4), not bot 1."""

    def _setup(self, state: FlitState, square: int) -> tuple[FlitState, list[Any]]:
        after, events = super()._setup(state, square)
        if after.phase != state.phase:  # the last initial piece: play begins
            after = after._replace(to_move=state.to_move)
        return after, events


# --- FLIT-TURN-ORDER ---------------------------------------------------------------------


class TurnOrderSkip(Flit):
    """The turn goes 1, 2, 4, 3."""

    def next_bot(self, bot: int) -> int:
        return {1: 2, 2: 4, 4: 3, 3: 1}[bot]


class TurnOrderReversed(Flit):
    """The turn goes 1, 4, 3, 2: the bots are walked backwards."""

    def next_bot(self, bot: int) -> int:
        return (bot - 2) % 4 + 1


# --- FLIT-MOVE-VALID ---------------------------------------------------------------------


class SelfNeighbour(Flit):
    """The moving piece counts as its own neighbour."""

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        return any(state.board[n] == bot for n in self.neighbours(state)[dest])


class StepOnly(Flit):
    """A piece may only step to a neighbouring square (the rule's distance is unlimited)."""

    def _move(self, state: FlitState, origin: int, dest: int) -> tuple[FlitState, list[Any]]:
        if 0 <= origin < len(state.board) and dest not in self.neighbours(state)[origin]:
            raise IllegalAction("a piece moves one square")
        return super()._move(state, origin, dest)

    def _destinations(self, state: FlitState, origin: int, touching: dict[int, int]) -> list[int]:
        near = self.neighbours(state)[origin]
        return [d for d in super()._destinations(state, origin, touching) if d in near]


class AnyDestination(Flit):
    """A piece may go to any empty square, touching another own piece or not."""

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        return True


class DiagonalNeighbours(Flit):
    """A piece touching the destination diagonally counts as its neighbour for a move."""

    def has_other_own_neighbour(self, state: FlitState, origin: int, dest: int, bot: int) -> bool:
        board = state.board
        near = self.neighbours(state)[dest] + _diagonals(state, dest)
        return any(n != origin and board[n] == bot for n in near)


# --- FLIT-MOVE-NOMOVE --------------------------------------------------------------------


class PassRefused(Flit):
    """A no move is refused while the bot has a real move."""

    def legal(self, state: FlitState) -> list[Action]:
        actions = super().legal(state)
        return actions[1:] if len(actions) > 1 else actions

    def apply(self, state: FlitState, action: Action) -> tuple[FlitState, list[Any]]:
        if action == ("pass",) and len(super().legal(state)) > 1:
            raise IllegalAction("you have a move: make it")
        return super().apply(state, action)


class PassNotCounted(Flit):
    """A no move is not counted as a turn."""

    def _no_move(self, state: FlitState, cause: str) -> tuple[FlitState, list[Any]]:
        if cause != "pass":
            return super()._no_move(state, cause)
        return super()._no_move(state._replace(turn=state.turn - 1), cause)


# --- FLIT-MOVE-INVALID -------------------------------------------------------------------


class InvalidDisqualifies(Flit):
    """An invalid reply freezes the bot whatever the profile says (the catalogue's reading
    `disqualify`)."""

    def invalid_disqualifies(self, cfg: FlitConfig) -> bool:
        return True


class InvalidAsTimeout(Flit):
    """An invalid reply is handled as a time-out: the bot's run of time-outs grows."""

    def _no_move(self, state: FlitState, cause: str) -> tuple[FlitState, list[Any]]:
        return super()._no_move(state, "timeout" if cause == "invalid" else cause)


# --- FLIT-CONVERT ------------------------------------------------------------------------


class ConvertNoWrap(Flit):
    """Conversion misses neutrals across the wrap."""

    def convertible(self, state: FlitState, dest: int) -> tuple[int, ...]:
        w, h = state.width, state.height
        x, y = dest % w, dest // w
        return tuple(ny * w + nx for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
                     if 0 <= nx < w and 0 <= ny < h)


class ConvertNone(Flit):
    """Neutrals are never converted."""

    def convertible(self, state: FlitState, dest: int) -> tuple[int, ...]:
        return ()


class ConvertFirstOnly(Flit):
    """A move converts one neutral at most: the first found next to its destination."""

    def convertible(self, state: FlitState, dest: int) -> tuple[int, ...]:
        board = state.board
        found = [n for n in self.neighbours(state)[dest] if board[n] == NEUTRAL]
        return tuple(found[:1])


class ConvertDiagonal(Flit):
    """Neutrals touching the destination diagonally are converted too."""

    def convertible(self, state: FlitState, dest: int) -> tuple[int, ...]:
        return self.neighbours(state)[dest] + _diagonals(state, dest)


# --- FLIT-NEUTRAL-ADD --------------------------------------------------------------------


class NeutralAnywhere(Flit):
    """A neutral may land on any empty square, available or not."""

    def neutral_allowed(self, state: FlitState, square: int) -> bool:
        return state.board[square] == 0


class NeutralWeights(Flit):
    """The neutral step lists its outcomes with the wrong weights (a neutral lands on an
    available square with probability 1 in 8, not 1 in hit_denominator; the misses make up
    the rest). Its outcomes and transitions are the reference's: not a blame model."""

    def chance(self, state: FlitState) -> list[Outcome[Any]]:
        out = super().chance(state)
        if not out or out[0].action[0] != "neutral":
            return out
        square = Fraction(1, len(state.board))
        hit, miss = square / 8, square * 7 / 8
        available = {o.action[1] for o in out if o.action[2]}
        return [Outcome(o.action, o.probability if o.action[1] not in available
                        else hit if o.action[2] else miss) for o in out]


# --- FLIT-TIME-LIMIT and FLIT-FREEZE -----------------------------------------------------


class TimeoutRunKept(Flit):
    """A reply in time does not reset the run of time-outs."""

    def answered_in_time(self, timeouts: tuple[int, int, int, int],
                         bot: int) -> tuple[int, int, int, int]:
        return timeouts


class TimeoutNotCounted(Flit):
    """A time-out does not lengthen the bot's run of time-outs (so it never freezes)."""

    def count_timeout(self, timeouts: tuple[int, int, int, int],
                      bot: int) -> tuple[int, int, int, int]:
        return timeouts


class InvalidKeepsRun(Flit):
    """An invalid reply, though in time, does not reset the run of time-outs."""

    def _no_move(self, state: FlitState, cause: str) -> tuple[FlitState, list[Any]]:
        after, events = super()._no_move(state, cause)
        if cause == "invalid":
            after = after._replace(timeouts=state.timeouts)
        return after, events


class FreezeAfterFour(Flit):
    """Four time-outs in a row freeze a bot (the catalogue's parameter model
    consecutive_timeouts = 4)."""

    def freezes(self, cfg: FlitConfig, run: int) -> bool:
        return run >= cfg.freeze_after - 1


class FreezeNever(Flit):
    """A bot is never frozen, however many time-outs in a row."""

    def freezes(self, cfg: FlitConfig, run: int) -> bool:
        return False


# --- the end -----------------------------------------------------------------------------

_REASON_ORDER = ("catch-up", "all-pass", "turn-cap")


def _reasons(reasons: list[str], reason: str, holds: bool) -> list[str]:
    """`reasons` with `reason` listed exactly when it `holds`, in the engine's order."""
    kept = {r for r in reasons if r != reason} | ({reason} if holds else set())
    return [r for r in _REASON_ORDER if r in kept]


class TurncapOffByOne(Flit):
    """The game runs one turn past the cap (the catalogue's reading literal-exceeds)."""

    def turn_cap_reached(self, state: FlitState) -> bool:
        return state.turn > state.cfg.max_turns


class TurncapNone(Flit):
    """The game has no turn cap."""

    def turn_cap_reached(self, state: FlitState) -> bool:
        return False


class AllpassNoReset(Flit):
    """A real move does not reset the run of no moves."""

    def passes_after_move(self, state: FlitState) -> int:
        return state.passes


class _AllpassAfter(Flit):
    """The all-pass end after `needed` no moves in a row, whatever the number of bots."""

    needed = 4

    def end_reasons(self, state: FlitState) -> list[str]:
        return _reasons(super().end_reasons(state), "all-pass", state.passes >= self.needed)


class AllpassAfterThree(_AllpassAfter):
    """The game ends after three no moves in a row."""

    needed = 3


class AllpassNone(Flit):
    """The game never ends because every bot made no move."""

    def end_reasons(self, state: FlitState) -> list[str]:
        return _reasons(super().end_reasons(state), "all-pass", False)


class CatchupGe(Flit):
    """The catch-up test uses >= instead of > (the catalogue's parameter model
    p_offset = 5)."""

    def cannot_be_caught(self, cfg: FlitConfig, d: Any, a: Any, b: Any, c: Any, n: Any,
                         e: Any, max2: Max2 = max) -> Any:
        p = n + e - cfg.p_offset
        return d >= max2(max2(a + p, b + p), c + p)


class CatchupNoOffset(Flit):
    """P lacks the - 4."""

    def cannot_be_caught(self, cfg: FlitConfig, d: Any, a: Any, b: Any, c: Any, n: Any,
                         e: Any, max2: Max2 = max) -> Any:
        p = n + e
        return d > max2(max2(a + p, b + p), c + p)


class CatchupEmptyOnly(Flit):
    """P counts the empty squares only, not the neutrals: P = E - 4."""

    def cannot_be_caught(self, cfg: FlitConfig, d: Any, a: Any, b: Any, c: Any, n: Any,
                         e: Any, max2: Max2 = max) -> Any:
        return super().cannot_be_caught(cfg, d, a, b, c, 0, e, max2)


class EndAfterMove(Flit):
    """End conditions are checked right after the move (the catalogue's reading
    after-move)."""

    def config(self, profile: Profile) -> FlitConfig:
        return dataclasses.replace(FlitConfig.of(profile), end_after_move=True)


class WinnerZeroBased(Flit):
    """The winner is reported as a 0-based index."""

    def winner(self, counts: list[int]) -> int | None:
        best = max(counts)
        return counts.index(best) if counts.count(best) == 1 else None


class TieLowestWins(Flit):
    """A tie for first goes to the lowest-numbered bot."""

    def winner(self, counts: list[int]) -> int | None:
        return counts.index(max(counts)) + 1


# --- protocol ----------------------------------------------------------------------------


class ReplyWraps(Flit):
    """Reply coordinates off the board are wrapped onto it (a referee departure: not a
    blame model)."""

    def reply_squares(self, state: FlitState, x0: int, y0: int, x1: int,
                      y1: int) -> tuple[int, int] | None:
        w, h = state.width, state.height
        return (y0 % h) * w + x0 % w, (y1 % h) * w + x1 % w


class SilentConversion(Flit):
    """Conversions happen but are not announced (an event departure: not a blame model)."""

    def conversion_event(self, state: FlitState, bot: int, square: int) -> dict[str, Any] | None:
        return None


# (rule, kind, text, factory): replayed by fuzz.step.blame on every departing step. Within a
# rule, where one model explains every step another does (no conversion at all explains
# each step a conversion forgetting the wrap departs at), the broader comes first: an
# engine of the broader kind is then charged one cause for all its steps, never split over
# two because its first departing step happened to fit the narrower one too. A model that
# one other explains on every step it departs at is left out (an all-pass end after five no
# moves: the model without an all-pass end explains its only departing step). A model that
# would match other departures by coincidence is left out too (the fewest pieces winning
# names, for some counts, the very bot another wrong winner names).
MODELS: Sequence[tuple[str, str, str, Callable[[], Flit]]] = (
    ("FLIT-BOARD-TORUS", "no-wrap-x", "move adjacency without the left-right wrap", NoWrapX),
    ("FLIT-BOARD-TORUS", "no-wrap-y", "move adjacency without the top-bottom wrap", NoWrapY),
    ("FLIT-BOARD-TORUS", "no-wrap", "move adjacency on a flat board, no wrap at all", NoWrap),
    ("FLIT-SETUP-AVAILABLE", "any-empty", "initial pieces on any empty square",
     SetupAnyEmpty),
    ("FLIT-SETUP-ORDER", "snake", "second initial pieces dealt in reverse (4, 3, 2, 1)",
     SetupSnake),
    ("FLIT-SETUP-ORDER", "bot-by-bot", "each bot's initial pieces dealt together "
     "(1, 1, 2, 2, ...)", SetupBotByBot),
    ("FLIT-SETUP-ORDER", "last-placer-first", "play starts with the bot that placed the "
     "last initial piece", LastPlacerFirst),
    ("FLIT-TURN-ORDER", "skip", "the turn goes 1, 2, 4, 3", TurnOrderSkip),
    ("FLIT-TURN-ORDER", "reversed", "the turn goes 1, 4, 3, 2", TurnOrderReversed),
    ("FLIT-MOVE-VALID", "self-neighbour", "the moving piece counts as its own neighbour",
     SelfNeighbour),
    ("FLIT-MOVE-VALID", "step-only", "a piece may only step to a neighbouring square",
     StepOnly),
    ("FLIT-MOVE-VALID", "any-destination", "a piece may go to any empty square",
     AnyDestination),
    ("FLIT-MOVE-VALID", "diagonal-neighbours",
     "a piece touching the destination diagonally counts as its neighbour",
     DiagonalNeighbours),
    ("FLIT-MOVE-NOMOVE", "refused", "a no move refused while the bot has a real move",
     PassRefused),
    ("FLIT-MOVE-NOMOVE", "not-a-turn", "a no move not counted as a turn", PassNotCounted),
    ("FLIT-MOVE-INVALID", "as-timeout", "an invalid reply handled as a time-out",
     InvalidAsTimeout),
    ("FLIT-CONVERT", "none", "neutrals never converted", ConvertNone),
    ("FLIT-CONVERT", "no-wrap", "conversion misses neutrals across the wrap", ConvertNoWrap),
    ("FLIT-CONVERT", "first-only", "one neutral converted per move at most",
     ConvertFirstOnly),
    ("FLIT-CONVERT", "diagonal", "diagonal neutrals converted too", ConvertDiagonal),
    ("FLIT-NEUTRAL-ADD", "anywhere", "a neutral may land on any empty square",
     NeutralAnywhere),
    ("FLIT-TIME-LIMIT", "run-kept", "a reply in time does not reset the run of time-outs",
     TimeoutRunKept),
    ("FLIT-TIME-LIMIT", "not-counted", "a time-out does not lengthen the run of time-outs",
     TimeoutNotCounted),
    ("FLIT-TIME-LIMIT", "invalid-keeps-run",
     "an invalid reply does not reset the run of time-outs", InvalidKeepsRun),
    ("FLIT-FREEZE", "never", "a bot is never frozen", FreezeNever),
    ("FLIT-END-TURNCAP", "none", "no turn cap", TurncapNone),
    ("FLIT-END-ALLPASS", "no-reset", "a real move does not reset the run of no moves",
     AllpassNoReset),
    ("FLIT-END-ALLPASS", "after-three", "the game ends after three no moves in a row",
     AllpassAfterThree),
    ("FLIT-END-ALLPASS", "none", "no all-pass end", AllpassNone),
    ("FLIT-END-CATCHUP", "no-offset", "catch-up with P = N + E (no - 4)", CatchupNoOffset),
    ("FLIT-END-CATCHUP", "empty-only", "catch-up with P = E - 4 (neutrals left out)",
     CatchupEmptyOnly),
    ("FLIT-WINNER", "zero-based", "the winner reported as a 0-based index", WinnerZeroBased),
    ("FLIT-WINNER-TIE", "lowest-wins", "a tie for first goes to the lowest-numbered bot",
     TieLowestWins),
)

# Classes kept for the public mutants but left out of MODELS, each with why: the catalogue
# models it already (reading or parameter), or no state shows it.
NOT_MODELS: dict[type[Flit], str] = {
    BoardShort: "the catalogue's parameter model FLIT-BOARD-SIZE height = 31",
    InvalidDisqualifies: "the catalogue's reading FLIT-MOVE-INVALID = disqualify",
    FreezeAfterFour: "the catalogue's parameter model FLIT-FREEZE consecutive_timeouts = 4",
    TurncapOffByOne: "the catalogue's reading FLIT-END-TURNCAP = literal-exceeds",
    CatchupGe: "the catalogue's parameter model FLIT-END-CATCHUP p_offset = 5",
    EndAfterMove: "the catalogue's reading FLIT-END-TIMING = after-move",
    NeutralWeights: "only the listed probabilities differ: no transition does",
    ReplyWraps: "only the referee's reading of bot text differs",
    SilentConversion: "only the events differ",
}
