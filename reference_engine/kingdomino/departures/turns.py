"""One-rule departures of Kingdomino's material and turn rules (KD-PLAYERS, KD-KINGS,
KD-TILES-IN-PLAY, KD-DEAL, KD-ORDER-FIRST, KD-ORDER, KD-FIRST-TURN-NO-PUT, KD-PICK,
KD-LAST-TURN-NO-PICK, KD-GAME-LENGTH): each a small subclass of the reference engine that
overrides one hook.

Models for blame and the classes of the public mutants; nothing else belongs here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from gamecert.reference_engine.contract import Outcome
from gamecert.reference_engine.kingdomino.engine import Kingdomino
from gamecert.reference_engine.kingdomino.state import KdConfig, KdState, Put
from gamecert.spec import Profile


class ThreeSeats(Kingdomino):
    """KD-PLAYERS: a 4-player game is set up with 3 seats."""

    def config(self, profile: Profile) -> KdConfig:
        cfg = super().config(profile)
        return replace(cfg, players=3) if cfg.players == 4 else cfg


class OneKingTwoPlayers(Kingdomino):
    """KD-KINGS: with 2 players each player has one king (the rule's parameter moved by
    one: blame has it as `parameter-kings-2p-1`; kept for the public mutant)."""

    def kings_per_player(self, cfg: KdConfig) -> int:
        return 1


class ThreePlayerLineOfFour(Kingdomino):
    """KD-TILES-IN-PLAY: with 3 players each line has 4 tiles, as with 4."""

    def line_size(self, cfg: KdConfig) -> int:
        return 4 if cfg.players == 3 else cfg.line


class DealDrawnTile(Kingdomino):
    """KD-DEAL: a tile already drawn may be drawn again."""

    def _deal(self, state: KdState, tile: Any) -> tuple[KdState, list[Any]]:
        if type(tile) is int and 1 <= tile <= 48 and tile not in state.bag \
                and tile not in {t for t, _ in state.line}:
            state = state._replace(bag=tuple(sorted((*state.bag, tile))))
        return super()._deal(state, tile)


class DealWeights(Kingdomino):
    """KD-DEAL: each tile of a new line is drawn with the wrong weights (the lowest id left
    is listed as twice as likely as each other tile). Every transition is the reference's:
    only the probabilities it lists differ, so it explains no step (not a blame model)."""

    def chance(self, state: KdState) -> list[Outcome[Any]]:
        out = super().chance(state)
        if len(out) < 2 or out[0].action[0] != "deal":
            return out
        n = len(out)
        low = min(o.action[1] for o in out)
        return [Outcome(o.action, Fraction(2 if o.action[1] == low else 1, n + 1))
                for o in out]


class FirstOrderReversed(Kingdomino):
    """KD-ORDER-FIRST: the first turn's order is the seat order reversed."""

    def first_orders(self, state: KdState) -> list[tuple[int, ...]]:
        return [tuple(reversed(o)) for o in super().first_orders(state)]


class SeatOrderEveryTurn(Kingdomino):
    """KD-ORDER: every turn the kings act in seat order, not by the ids they picked."""

    def turn_order(self, line: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        return sorted(((t, o) for t, o in line if o), key=lambda k: (k[1], k[0]))


class HighestIdFirst(Kingdomino):
    """KD-ORDER: the king that picked the highest id acts first (the order read backwards)."""

    def turn_order(self, line: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        return sorted(((t, o) for t, o in line if o), reverse=True)


class FirstTurnPutIgnored(Kingdomino):
    """KD-FIRST-TURN-NO-PUT: a PUT on the first turn is accepted (and ignored)."""

    def _play(self, state: KdState, put: Put | None, pick: Any,
              invalid_put: bool) -> tuple[KdState, list[Any]]:
        if state.turn == 1:
            put = None
        return super()._play(state, put, pick, invalid_put)


class PickTakenTile(Kingdomino):
    """KD-PICK: a king may pick a tile another king has already picked."""

    def pick_error(self, state: KdState, pick: Any) -> str | None:
        if not self.last_turn(state) and pick in {t for t, _ in state.line}:
            return None
        return super().pick_error(state, pick)


class PickOnLastTurn(Kingdomino):
    """KD-LAST-TURN-NO-PICK: a PICK on the last turn is accepted (and ignored)."""

    def pick_error(self, state: KdState, pick: Any) -> str | None:
        if self.last_turn(state) and type(pick) is int and 1 <= pick <= 48:
            return None
        return super().pick_error(state, pick)


class OneTurnShort(Kingdomino):
    """KD-GAME-LENGTH: the game ends a turn early: after the second-to-last turn's plays."""

    def _next_turn(self, state: KdState, events: list[Any]) -> KdState:
        if state.turn + 1 >= state.cfg.turns:
            return self._finish(state, events)
        return super()._next_turn(state, events)
