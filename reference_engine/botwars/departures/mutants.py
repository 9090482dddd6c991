"""The public one-rule mutants of Bot Wars (examples/engines/botwars/) as departure models:
each class subclasses the reference and overrides one hook, breaking exactly the rule its
example module names. The examples import them from here, so the library and the examples
are one code; `departures.MODELS` lists those that are not already a reading or a
parameter of the catalogue (fuzz.step.blame makes those itself).

This module must not import the harness or the oracles.
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from typing import Any

from gamecert.reference_engine.botwars.engine import (
    BOT,
    EMPTY,
    P1,
    P2,
    BotWars,
    BotWarsConfig,
    BotWarsState,
    Checked,
    Move,
    neighbour_table,
)
from gamecert.reference_engine.contract import Outcome
from gamecert.spec import Profile


class PairwiseBattles(BotWars):
    """Battles fought one adjacent pair at a time, the dead removed at once, instead of
    all battles decided together on the post-move field (BOTWARS-BATTLE)."""

    def battle_deaths(self, cfg: BotWarsConfig,
                      grid: bytes) -> list[tuple[int, tuple[int, ...]]]:
        field = bytearray(grid)

        def foes(sq: int) -> tuple[int, ...]:
            enemy = BOT[2] if field[sq] == BOT[1] else BOT[1]
            return tuple(sorted(n for n in cfg.nbrs[sq] if field[n] == enemy))

        dead: dict[int, tuple[int, ...]] = {}
        for a in range(len(field)):
            for b in foes(a) if field[a] in (BOT[1], BOT[2]) else ():
                if field[a] not in (BOT[1], BOT[2]) or field[b] not in (BOT[1], BOT[2]):
                    continue
                fa, fb = foes(a), foes(b)
                lose_a, lose_b = len(fb) <= len(fa), len(fa) <= len(fb)
                if lose_a:
                    dead[a] = fa
                    field[a] = ord(".")
                if lose_b:
                    dead[b] = fb
                    field[b] = ord(".")
        return sorted(dead.items())


class RazeBeforeBattle(BotWars):
    """Razing looks at the field before the battles: a botlet that dies on the enemy spawn
    still razes it (BOTWARS-RAZE)."""

    def raze_grid(self, post_move: bytes, post_battle: bytes) -> bytes:
        return post_move


class ContestedToP1(BotWars):
    """Energy touched by both bots goes to p1 instead of vanishing
    (BOTWARS-ENERGY-CONTESTED)."""

    def energy_taker(self, cfg: BotWarsConfig, n1: int, n2: int) -> int:
        return 1 if n1 else 2


class EnergyEvery2(BotWars):
    """Energy placed every 2 turns instead of every 3 (BOTWARS-ENERGY-SPAWN; the parameter
    move interval = 2 under the default profile)."""

    def energy_due(self, cfg: BotWarsConfig, turns: int) -> bool:
        return turns >= 1 and turns % 2 == 0


class SpawnWhenRazed(BotWars):
    """A razed spawn still produces botlets (BOTWARS-SPAWN)."""

    def may_spawn(self, cfg: BotWarsConfig, energy: int, razed: bool) -> bool:
        return energy >= cfg.spawn_cost


class WinnerByEnergy(BotWars):
    """At the turn limit the bot with more energy wins, not the one with more botlets
    (BOTWARS-WINNER)."""

    def turn_limit_winner(self, cfg: BotWarsConfig, counts: tuple[int, int],
                          energy: tuple[int, int]) -> int:
        if energy[0] == energy[1]:
            return 0
        return 1 if energy[0] > energy[1] else 2


class InvalidDropsMove(BotWars):
    """An invalid move only drops itself; the rest of the list is carried out, even where
    the profile says the whole turn is lost (BOTWARS-MOVE-INVALID; the reading drop-move)."""

    def accepted(self, cfg: BotWarsConfig, checked: Checked) -> tuple[Move, ...]:
        return checked.valid


class CollectDiagonal(BotWars):
    """Botlets diagonal to energy collect it too (BOTWARS-ENERGY-COLLECT; the reading
    eight-neighbours)."""

    def collect_neighbours(self, cfg: BotWarsConfig) -> tuple[tuple[int, ...], ...]:
        return cfg.nbrs8


class LenientFormat(BotWars):
    """A forgiving referee: a reply that is JSON but not a list of {from, to} objects
    counts as an empty turn instead of disqualifying (BOTWARS-FORMAT-DQ; bot text only)."""

    def parse_reply(self, text: str) -> tuple[Move, ...] | None:
        moves = super().parse_reply(text)
        if moves is not None:
            return moves
        try:
            json.loads(text)
        except (ValueError, RecursionError):  # nested too deep: not JSON it can read, as
            return None  # for the reference; its one departure is the leniency
        return ()


class TurnLimitLate(BotWars):
    """The game stops only once turnsElapsed exceeds the limit (BOTWARS-END-TURNLIMIT; the
    parameter move max_turns = 201)."""

    def turn_limit_reached(self, cfg: BotWarsConfig, turns: int) -> bool:
        return turns > cfg.max_turns


class MoveOntoOwn(BotWars):
    """A botlet may move onto a square its own botlet holds, the two merging into one
    (BOTWARS-MOVE-OCCUPIED)."""

    def single_move_fault(self, cfg: BotWarsConfig, grid: bytes, side: int,
                          move: Move) -> tuple[str, str] | None:
        fault = super().single_move_fault(cfg, grid, side, move)
        if fault == ("occupied", "BOTWARS-MOVE-OCCUPIED") and grid[move[1]] == BOT[side]:
            return None
        return fault


class EnergyOnSpawn(BotWars):
    """Energy may be placed on the spawn points under every reading
    (BOTWARS-ENERGY-SQUARES; the reading any-empty)."""

    def energy_may_cover(self, cfg: BotWarsConfig, square: int) -> bool:
        return True


class EnergyWeights(BotWars):
    """The energy step lists the free mirror pairs with unequal weights, the first twice
    as likely as each other one; every transition is right (BOTWARS-ENERGY-SPAWN; only
    the probabilities listed differ)."""

    def chance(self, state: BotWarsState) -> list[Outcome[Any]]:
        out = super().chance(state)
        if len(out) < 2:
            return out
        each = Fraction(1, len(out) + 1)
        return [Outcome(o.action, 2 * each if i == 0 else each) for i, o in enumerate(out)]


class LateLosesGame(BotWars):
    """A bot that answers late is disqualified and loses the game, where the `lenient`
    profile says it only loses its turn (BOTWARS-TIME-LIMIT; the reading disqualify)."""

    def apply(self, state: BotWarsState, action: Any) -> tuple[BotWarsState, list[Any]]:
        if action == ("timeout",) and state.phase in (P1, P2):
            return self._disqualify(state, "BOTWARS-TIME-LIMIT")
        return super().apply(state, action)


class StartWithoutBotlets(BotWars):
    """A new game starts with no botlet on the field and the whole initial energy, where
    the `original` profile puts each bot's first botlet on its spawn point at the start
    (BOTWARS-FIRST-BOTLETS; the reading spawn-in-turn-1)."""

    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        state = super().initial(profile, seed)
        cfg = state.cfg
        energy = cfg.initial_energy
        return BotWarsState(cfg, bytes(EMPTY for _ in range(cfg.size)), P1, 0,
                            (energy, energy), (False, False), (False, False), (), 0, None)


def wrapped(state: BotWarsState) -> BotWarsState:
    """`state` on a field that wraps at its edges like a torus."""
    cfg = state.cfg
    return state._replace(cfg=dataclasses.replace(
        cfg, wrap=True, nbrs=neighbour_table(cfg.rows, cfg.cols, True),
        nbrs8=neighbour_table(cfg.rows, cfg.cols, True, True)))


class WrapEdges(BotWars):
    """The field wraps at its edges like a torus, for moves, battles and energy alike
    (BOTWARS-GRID; the reading wrap)."""

    def initial(self, profile: Profile, seed: int | None = None) -> BotWarsState:
        return wrapped(super().initial(profile, seed))

    def _load(self, profile: Profile, observed: Any, strict: bool) -> BotWarsState:
        return wrapped(super()._load(profile, observed, strict))


__all__ = ["CollectDiagonal", "ContestedToP1", "EnergyEvery2", "EnergyOnSpawn",
           "EnergyWeights", "InvalidDropsMove", "LateLosesGame", "LenientFormat",
           "MoveOntoOwn", "PairwiseBattles", "RazeBeforeBattle", "SpawnWhenRazed",
           "StartWithoutBotlets", "TurnLimitLate", "WinnerByEnergy", "WrapEdges", "wrapped"]
