"""Compound mutant: three departures at once, shaped like a real engine's.

1. CARC-TURN-ORDER, on every game's first step: the last player, not player 1, takes the
   first river turn (then the turns go round in order from there).
2. CARC-SCORE-MAJORITY, later: players tied for the most meeples on a feature completed
   during the game share its points out (rounded down) instead of each getting the full
   points (its final scoring pays ties as the rules say).
3. CARC-END-TILES, at the end: once the deck is empty, the game ends when the turn comes
   back round to player 1, while players still hold tiles to play.

Written on its own (not from the departure library). Run it behind the minimum
capabilities and with no events:
`--engine bare:examples.engines.carcassonne.compounds.compound_order_ties:ENGINE`.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.carcassonne import Carcassonne, CarcState, rules
from gamecert.reference_engine.carcassonne.engine import LAND_PHASE
from gamecert.spec import Profile

RULES = ("CARC-TURN-ORDER", "CARC-SCORE-MAJORITY", "CARC-END-TILES")


class OrderTies(Carcassonne):
    """The last player starts; ties share the points during the game; the game ends with
    the round once the deck is empty."""

    final_scoring = False  # set while the game's end is scored

    def initial(self, profile: Profile, seed: int | None = None) -> CarcState:
        state = super().initial(profile, seed)
        last = state.cfg.players
        return state._replace(to_move=last, pending=(last,))

    def award_points(self, counts: Any, points: Any, max2: rules.Max2 = max,
                     ite: rules.Ite = rules.py_ite) -> list[Any]:
        awards = super().award_points(counts, points, max2, ite)
        tied = sum(1 for a in awards if a)
        if self.final_scoring or tied < 2:
            return awards
        return [a // tied for a in awards]

    def _finish(self, state: CarcState, reason: str, events: list[Any]) -> CarcState:
        self.final_scoring = True
        try:
            return super()._finish(state, reason, events)
        finally:
            self.final_scoring = False

    def _start_turn(self, state: CarcState, player: int, events: list[Any]) -> CarcState:
        if state.phase == LAND_PHASE and not sum(state.deck) and player == 1:
            return self._finish(state._replace(to_move=player), "tiles-exhausted", events)
        return super()._start_turn(state, player, events)


ENGINE = OrderTies

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-compound-order_ties")
