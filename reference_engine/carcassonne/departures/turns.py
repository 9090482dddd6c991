"""Departure models: Equipment, players, turns, the deck and hands, and the end of the game.

Each class changes one rule decision of the reference engine (one hook or one piece of
logic), so a state the class gives and the reference does not names that rule
(`fuzz.step.blame`). The public mutants in examples/engines/carcassonne import them from here.
This module must not import the harness.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import (
    DRAW,
    LAND_PHASE,
    PLACE,
    RIVER_PHASE,
    Action,
)
from gamecert.reference_engine.contract import IllegalAction, Outcome
from gamecert.spec import Profile


class TilesShort(Carcassonne):
    """The land deck is one tile (a D) short."""

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        deck = list(state.deck)
        deck[state.cfg.t.index["D"]] -= 1
        return state._replace(deck=tuple(deck))


class ExtraPlayer(Carcassonne):
    """A new game seats one player more than the profile says."""

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        n = state.cfg.players + 1
        cfg = dataclasses.replace(state.cfg, players=n)
        return state._replace(cfg=cfg, supply=(cfg.meeples,) * n, scores=(0,) * n,
                              hands=((),) * n)


class TurnOrderReversed(Carcassonne):
    """Turns go round backwards: player 1, then N, N - 1, ..."""

    def _next_turn(self, state: CarcState, events: list[Any]) -> CarcState:
        nxt = (state.to_move - 2) % state.cfg.players + 1
        if state.phase == RIVER_PHASE and (state.river.open_pos < 0
                                           or not sum(state.river_pile)):
            return self._end_river(state, events)
        return self._start_turn(state, nxt, events)


class DealToMover(Carcassonne):
    """Every draw goes to the player whose turn it is, so the opening deal lands in one hand."""

    def _draw(self, state: CarcState, k: Any) -> tuple[CarcState, list[Any]]:
        pending = (state.to_move,) * len(state.pending)
        return super()._draw(state._replace(pending=pending), k)


class DealOne(Carcassonne):
    """The opening deal gives each player one land tile instead of two."""

    def _end_river(self, state: CarcState, events: list[Any]) -> CarcState:
        short = dataclasses.replace(state.cfg, opening_deal=state.cfg.opening_deal - 1)
        return super()._end_river(state._replace(cfg=short), events)._replace(cfg=state.cfg)


class HandOfTwo(Carcassonne):
    """Hands are topped up to two tiles at the start of a turn, not three."""

    def _start_turn(self, state: CarcState, player: int, events: list[Any]) -> CarcState:
        small = dataclasses.replace(state.cfg, hand_max=state.cfg.hand_max - 1)
        out = super()._start_turn(state._replace(cfg=small), player, events)
        return out._replace(cfg=state.cfg)


class DiscardWhenFits(Carcassonne):
    """A tile may be discarded even when a tile of the hand fits."""

    def legal(self, state: CarcState) -> list[Action]:
        actions = super().legal(state)
        if state.step == PLACE and actions and actions[0][0] == "place":
            actions += [("discard", k) for k in sorted(set(state.hands[state.to_move - 1]))]
        return actions

    def _discard(self, state: CarcState, k: Any) -> tuple[CarcState, list[Any]]:
        # the reference's _discard without its check that no tile of the hand fits
        t, p = state.cfg.t, state.to_move
        if not isinstance(k, int) or k not in state.hands[p - 1]:
            raise IllegalAction(f"tile {k!r} is not in player {p}'s hand")
        hand = list(state.hands[p - 1])
        hand.remove(k)
        hands = list(state.hands)
        hands[p - 1] = tuple(hand)
        discarded = tuple(sorted([*state.discarded, k], key=t.sort_key.__getitem__))
        state = state._replace(hands=tuple(hands), discarded=discarded)
        events: list[Any] = [{"type": "tile-discarded", "rule": "CARC-HAND-NOFIT",
                              "player": p, "tile": t.ids[k]}]
        if sum(self._pile(state)):
            if state.phase == RIVER_PHASE and not state.cfg.nofit_continue:
                return self._next_turn(state, events), events
            return state._replace(step=DRAW, pending=(p,),
                                  then_next=not state.cfg.nofit_continue), events
        if hand and state.cfg.nofit_continue:
            return state, events
        return self._next_turn(state, events), events


class DrawByKind(Carcassonne):
    def chance(self, state: CarcState) -> list[Outcome[Any]]:
        out = super().chance(state)
        if not out or state.phase == RIVER_PHASE:
            return out
        return [Outcome(o.action, Fraction(1, len(out))) for o in out]


FAVOURED = "V"


class DeckBiased(Carcassonne):
    """Draws weigh the favoured kind double."""

    def chance(self, state: CarcState) -> list[Outcome[Any]]:
        outcomes = super().chance(state)
        favoured = state.cfg.t.ids.index(FAVOURED)
        weights = [o.probability * (2 if o.action[1] == favoured else 1) for o in outcomes]
        total = sum(weights)
        return [Outcome(o.action, w / total) for o, w in zip(outcomes, weights, strict=True)]


class EndWhenDeckEmpty(Carcassonne):
    """The game ends as soon as the land deck is empty, with tiles still in hands."""

    def _start_turn(self, state: CarcState, player: int, events: list[Any]) -> CarcState:
        if state.phase == LAND_PHASE and not any(state.deck):
            return self._finish(state._replace(to_move=player), "tiles-exhausted", events)
        return super()._start_turn(state, player, events)


class NoStopAt50(Carcassonne):
    """The game goes on after a player reaches 50 points."""

    def _limit_reached(self, state: CarcState) -> bool:
        return False


class WinnerBeforeFinal(Carcassonne):
    """The winner is decided on the scores before the final scoring of open features."""

    def _finish(self, state: CarcState, reason: str, events: list[Any]) -> CarcState:
        before = list(state.scores)
        out = super()._finish(state, reason, events)
        assert out.result is not None
        winners = self.winners(state.cfg, before)
        events[-1] = dict(events[-1], winners=winners)  # the game-won event
        return out._replace(result=dict(out.result, winners=winners))
