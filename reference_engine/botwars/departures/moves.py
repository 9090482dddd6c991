"""Departures of step 1 (the moves) that engines are known to make, each a one-rule change
of the reference: a move onto an enemy botlet carried out, a list cut short at its first
invalid move, a botlet's last entry counting, diagonal steps, p1 first into a square both
bots move onto. The catalogue's readings (drop-move, follow-own, both-die, ...) are models
already (fuzz.step.blame): none is repeated here.

This module must not import the harness or the oracles.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.botwars.engine import (
    BOT,
    ENERGY,
    BotWars,
    BotWarsConfig,
    BotWarsState,
    Checked,
    Invalid,
    Move,
)


class OntoEnemy(BotWars):
    """A move onto a square an enemy botlet holds is carried out: the mover takes the
    square, and the enemy there is gone unless it moves away (BOTWARS-MOVE-OCCUPIED: an
    enemy's square is never a valid destination)."""

    def single_move_fault(self, cfg: BotWarsConfig, grid: bytes, side: int,
                          move: Move) -> tuple[str, str] | None:
        fault = super().single_move_fault(cfg, grid, side, move)
        if fault == ("occupied", "BOTWARS-MOVE-OCCUPIED") and grid[move[1]] == BOT[3 - side]:
            return None
        return fault


class StopAtInvalid(BotWars):
    """A list is carried out up to its first invalid entry; that entry and every entry
    after it are dropped (BOTWARS-MOVE-INVALID: the whole turn is lost, or only the
    invalid moves are dropped, as the reading says)."""

    def _judge_list(self, state: BotWarsState, moves: tuple[Move, ...],
                    events: list[Any]) -> tuple[Move, ...]:
        checked = self.check_moves(state, state.side, moves)
        super()._judge_list(state, moves, events)  # its events as the reference writes them
        if not checked.invalid:
            return checked.valid
        before = set(moves[:checked.invalid[0].index])
        return tuple(mv for mv in checked.valid if mv in before)


class LaterEntryCounts(BotWars):
    """Of several entries for one botlet that pass the single-move checks, the last
    stands and the earlier ones are invalid (BOTWARS-MOVE: the first counts, or all are
    invalid, as the reading says)."""

    def check_moves(self, state: BotWarsState, side: int, moves: tuple[Move, ...]) -> Checked:
        cfg, grid = state.cfg, state.grid
        faults = [self.single_move_fault(cfg, grid, side, mv) for mv in moves]
        last = {mv[0]: i for i, (mv, fault) in enumerate(zip(moves, faults, strict=True))
                if fault is None}
        drop = [i for i, (mv, fault) in enumerate(zip(moves, faults, strict=True))
                if fault is None and last[mv[0]] != i]
        if not drop:
            return super().check_moves(state, side, moves)
        keep = [i for i in range(len(moves)) if i not in drop]
        inner = super().check_moves(state, side, tuple(moves[i] for i in keep))
        invalid = [Invalid(keep[b.index], b.move, b.reason, b.rule) for b in inner.invalid]
        invalid += [Invalid(i, moves[i], "moved-twice", "BOTWARS-MOVE") for i in drop]
        return Checked(inner.valid, inner.stays, tuple(sorted(invalid, key=lambda b: b.index)))


class DiagonalSteps(BotWars):
    """A step to a diagonal neighbour is a move like any other (BOTWARS-MOVE: up, down,
    left or right only)."""

    def single_move_fault(self, cfg: BotWarsConfig, grid: bytes, side: int,
                          move: Move) -> tuple[str, str] | None:
        fault = super().single_move_fault(cfg, grid, side, move)
        f, t = move
        if fault != ("not-adjacent", "BOTWARS-MOVE") or t not in cfg.nbrs8[f]:
            return fault
        c = grid[t]
        if c == ENERGY and not cfg.gather:
            return "energy", "BOTWARS-MOVE-ENERGY"
        if c == BOT[3 - side] or (c == BOT[side] and not cfg.follow_own):
            return "occupied", "BOTWARS-MOVE-OCCUPIED"
        return None


def _halted(moves: tuple[Move, ...], blocked: set[int]) -> tuple[Move, ...]:
    """`moves` without those from `blocked` squares, and without the moves that follow a
    removed one into the square it was to leave (down the line)."""
    stopped = set(blocked)
    grow = True
    while grow:
        grow = False
        for f, t in moves:
            if t in stopped and f not in stopped:
                stopped.add(f)
                grow = True
    return tuple(mv for mv in moves if mv[0] not in stopped)


class P1EntersFirst(BotWars):
    """Where botlets of both bots move onto one square, p1's (moved first) enters it and
    p2's stays where it stands, with the botlets following it (BOTWARS-MOVE-COLLIDE: both
    stay, both die, or both die there, as the reading says)."""

    def step_moves(self, cfg: BotWarsConfig, grid: bytearray,
                   moves: tuple[tuple[Move, ...], tuple[Move, ...]], energy: list[int],
                   events: list[Any]) -> None:
        into = {t for _, t in moves[0]}
        blocked = {f for f, t in moves[1] if t in into}
        super().step_moves(cfg, grid, (moves[0], _halted(moves[1], blocked)), energy, events)


__all__ = ["DiagonalSteps", "LaterEntryCounts", "OntoEnemy", "P1EntersFirst",
           "StopAtInvalid"]
