"""Mutant: A tile may be discarded even when a tile of the hand fits. Breaks CARC-HAND-NOFIT."""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState
from gamecert.reference_engine.carcassonne.engine import DRAW, PLACE, RIVER_PHASE, Action
from gamecert.reference_engine.contract import IllegalAction

RULE = "CARC-HAND-NOFIT"


class Mutant(Carcassonne):
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


ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-discard_when_fits")
