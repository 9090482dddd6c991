"""What may happen next in Flit: the board's parameters, available squares and pieces,
the legal moves (FLIT-MOVE-VALID), the chance of the set-up and neutral steps
(FLIT-NEUTRAL-ADD) and random play.

`FlitMoves` is the bottom of the engine's chain of classes (`moves.py`, `steps.py`, then
`engine.py`'s `Flit`); its methods are hooks a mutant may override. It lists and draws; it
never plays a step (`steps.py` does).
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

from gamecert.reference_engine.contract import (
    Outcome,
)
from gamecert.reference_engine.flit.state import (
    EMPTY,
    MOVE,
    NEUTRAL_STEP,
    PASS,
    SETUP,
    Action,
    FlitConfig,
    FlitState,
    neighbour_table,
)
from gamecert.spec import Profile


class FlitMoves:
    """The board, legal moves, chance and random play (see the module docstring)."""

    # --- parameters ----------------------------------------------------------------------
    def config(self, profile: Profile) -> FlitConfig:
        return FlitConfig.of(profile)

    def size(self, profile: Profile) -> tuple[int, int]:
        cfg = FlitConfig.of(profile)
        return cfg.width, cfg.height

    def neighbours(self, state: FlitState) -> tuple[tuple[int, int, int, int], ...]:
        cfg = state.cfg
        return neighbour_table(cfg.width, cfg.height)

    # --- the board and legal moves -------------------------------------------------------
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

    # --- chance and random play ----------------------------------------------------------
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
