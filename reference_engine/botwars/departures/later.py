"""Departures of the later steps of a turn and of the end that engines are known to make,
each a one-rule change of the reference: battles by eight neighbours, the dead not marked
or not cleared, a spawn on whatever stands there, energy collected before spawning, energy
earned per botlet or by both bots, energy placed over botlets, an eliminated bot left in
the game or judged before it spawns, a tie won by p1. The catalogue's readings and
parameter moves are models already (fuzz.step.blame): none is repeated here.

This module must not import the harness or the oracles.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gamecert.reference_engine.botwars import rules
from gamecert.reference_engine.botwars.engine import (
    BOT,
    DEAD,
    EMPTY,
    ENERGY,
    BotWars,
    BotWarsConfig,
    BotWarsState,
    Move,
)
from gamecert.spec import Profile

_NO_MARKERS = bytes.maketrans(b"xX", b"..")


class DiagonalBattles(BotWars):
    """Botlets fight their eight neighbours, diagonals included (BOTWARS-BATTLE: sides
    only, as on the whole field)."""

    def battle_deaths(self, cfg: BotWarsConfig,
                      grid: bytes) -> list[tuple[int, tuple[int, ...]]]:
        contacts: dict[int, list[int]] = {}
        for sq in self.botlets(grid, 1):
            for n in cfg.nbrs8[sq]:
                if grid[n] == BOT[2]:
                    contacts.setdefault(sq, []).append(n)
                    contacts.setdefault(n, []).append(sq)
        return [(sq, tuple(sorted(contacts[sq]))) for sq in sorted(contacts)
                if rules.dies([(1, len(contacts[n])) for n in contacts[sq]], cfg.battle_every)]


class _Markers(BotWars):
    """What every turn leaves of the dead is changed after the turn is carried out."""

    def _carry_out(self, state: BotWarsState, moves1: tuple[Move, ...],
                   moves2: tuple[Move, ...], events: list[Any]) -> BotWarsState:
        after = super()._carry_out(state, moves1, moves2, events)
        return after._replace(grid=self.marked(state.grid, after.grid))

    def marked(self, before: bytes, after: bytes) -> bytes:
        return after


class NoMarkers(_Markers):
    """A botlet that dies leaves its square empty at once: no dead marker, and its square
    free for a spawn or energy in the same turn (BOTWARS-DEAD-MARKERS: x or X until the
    next turn)."""

    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        return _markers_empty(super().initial(profile, seed))

    def _load(self, profile: Profile, observed: Any, strict: bool) -> BotWarsState:
        return _markers_empty(super()._load(profile, observed, strict))

    def marked(self, before: bytes, after: bytes) -> bytes:
        return after.translate(_NO_MARKERS)


def _markers_empty(state: BotWarsState) -> BotWarsState:
    return state._replace(cfg=dataclasses.replace(state.cfg, markers_empty=True))


class MarkersKept(_Markers):
    """Last turn's dead markers are not cleared: a marker stays until something takes its
    square (BOTWARS-DEAD-MARKERS: cleared before the next turn's moves)."""

    def marked(self, before: bytes, after: bytes) -> bytes:
        out = bytearray(after)
        for sq, c in enumerate(before):
            if c in (DEAD[1], DEAD[2]) and out[sq] == EMPTY:
                out[sq] = c
        return bytes(out)


class SpawnOnAnything(BotWars):
    """The spawn step puts the new botlet on the spawn point whatever stands there (an
    own botlet, a marker, energy) and takes the energy (BOTWARS-SPAWN: the spawn point must
    be empty)."""

    def vacant(self, cfg: BotWarsConfig, char: int) -> bool:
        return True


class CollectBeforeSpawn(BotWars):
    """Energy is collected (step 5) before the spawns (step 4): energy collected in a turn
    buys a botlet in that turn, and the new botlet collects nothing (BOTWARS-TURN-ORDER)."""

    def step_spawn(self, cfg: BotWarsConfig, grid: bytearray, side: int, energy: list[int],
                   razed: tuple[bool, bool], events: list[Any]) -> None:
        self._razed = razed  # spawned after the collection, below

    def step_collect(self, cfg: BotWarsConfig, grid: bytearray, energy: list[int],
                     events: list[Any]) -> None:
        super().step_collect(cfg, grid, energy, events)
        for side in (1, 2):
            BotWars.step_spawn(self, cfg, grid, side, energy, self._razed, events)


def _collect(game: BotWars, cfg: BotWarsConfig, grid: bytearray, energy: list[int],
             gains: Any) -> None:
    """Step 5 with what each energy earns each bot given by `gains(n1, n2)`."""
    near = game.collect_neighbours(cfg)
    for sq in [i for i, c in enumerate(grid) if c == ENERGY]:
        n1 = sum(grid[n] == BOT[1] for n in near[sq])
        n2 = sum(grid[n] == BOT[2] for n in near[sq])
        if n1 or n2:
            grid[sq] = EMPTY
            g1, g2 = gains(n1, n2)
            energy[0] += g1
            energy[1] += g2


class CollectPerBotlet(BotWars):
    """Energy touched by one bot earns it one energy per botlet touching it
    (BOTWARS-ENERGY-COLLECT: one, however many of its botlets touch it)."""

    def step_collect(self, cfg: BotWarsConfig, grid: bytearray, energy: list[int],
                     events: list[Any]) -> None:
        def gains(n1: int, n2: int) -> tuple[int, int]:
            if n1 and n2:
                who = self.energy_taker(cfg, n1, n2)
                return (who == 1, who == 2)
            return (n1, n2)
        _collect(self, cfg, grid, energy, gains)


class ContestedToBoth(BotWars):
    """Energy touched by both bots earns each of them one (BOTWARS-ENERGY-CONTESTED:
    removed, nobody gets it)."""

    def step_collect(self, cfg: BotWarsConfig, grid: bytearray, energy: list[int],
                     events: list[Any]) -> None:
        def gains(n1: int, n2: int) -> tuple[int, int]:
            return (1, 1) if n1 and n2 else (1 if n1 else 0, 1 if n2 else 0)
        _collect(self, cfg, grid, energy, gains)


class EnergyOverBotlets(BotWars):
    """Energy may be placed on any mirror pair without energy on it, over botlets and
    markers (BOTWARS-ENERGY-SPAWN: both squares free)."""

    def free_for_energy(self, state: BotWarsState, square: int) -> bool:
        return state.grid[square] != ENERGY and self.energy_may_cover(state.cfg, square)


class EliminationIgnored(BotWars):
    """A bot left without botlets stays in the game; only the turn limit ends it
    (BOTWARS-END-ELIMINATION)."""

    def _check_end(self, state: BotWarsState, events: list[Any]) -> BotWarsState | None:
        if self.turn_limit_reached(state.cfg, state.turns):
            return super()._check_end(state, events)
        return None


class EliminationBeforeSpawn(BotWars):
    """Elimination is judged on the field before the spawns: a bot whose last botlet died
    this turn is out, though a new one spawns (BOTWARS-END-ELIMINATION: judged after step
    5)."""

    _before_spawn: tuple[int, int] | None = None  # the counts step 4 met, this turn

    def step_spawn(self, cfg: BotWarsConfig, grid: bytearray, side: int, energy: list[int],
                   razed: tuple[bool, bool], events: list[Any]) -> None:
        if side == 1:
            self._before_spawn = self.counts(bytes(grid))
        super().step_spawn(cfg, grid, side, energy, razed, events)

    def _check_end(self, state: BotWarsState, events: list[Any]) -> BotWarsState | None:
        counts, self._before_spawn = self._before_spawn, None
        if counts is not None and 0 in counts and 0 not in self.counts(state.grid):
            winner = 0 if counts == (0, 0) else (1 if counts[0] else 2)
            return self._finish(state, "elimination", winner, "BOTWARS-END-ELIMINATION",
                                events)
        return super()._check_end(state, events)


class TieToP1(BotWars):
    """At the turn limit, equal numbers of botlets give p1 the game (BOTWARS-WINNER: a
    draw, or the energy decides, as the reading says)."""

    def turn_limit_winner(self, cfg: BotWarsConfig, counts: tuple[int, int],
                          energy: tuple[int, int]) -> int:
        return super().turn_limit_winner(cfg, counts, energy) or 1


__all__ = ["CollectBeforeSpawn", "CollectPerBotlet", "ContestedToBoth", "DiagonalBattles",
           "EliminationBeforeSpawn", "EliminationIgnored", "EnergyOverBotlets",
           "MarkersKept", "NoMarkers", "SpawnOnAnything", "TieToP1"]
