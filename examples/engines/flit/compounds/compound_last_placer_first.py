"""Compound mutant: an engine shaped like a real one, with three departures at once.

Run it behind `bare:` (minimum capabilities, its own seeded draws, no events), as a real
engine is run: `--engine bare:examples.engines.flit.compounds.compound_last_placer_first:ENGINE`.

1. FLIT-SETUP-ORDER, on every game's first steps: play starts with bot 4, the bot that
   placed the last initial piece, instead of bot 1 (the engine never hands the turn on
   after the set-up).
2. FLIT-TURN-ORDER, later: a bot that times out is asked again (the turn stays with it
   until it replies in time or is frozen), instead of the turn passing to the next bot.
3. FLIT-END-ALLPASS, at the end: the game ends on no moves only when bots 1, 2, 3 and 4
   all made no move within one round (the last of them bot 4), not after any four no moves
   in a row.

Written apart from the departure library (reference_engine/flit/departures.py): its own
code, and departures 2 and 3 are not among the library's models, so the oracles name them.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.flit.engine import MOVE, Flit, FlitState

RULES = ("FLIT-SETUP-ORDER", "FLIT-TURN-ORDER", "FLIT-END-ALLPASS")


class LastPlacerFirst(Flit):
    def _setup(self, state: FlitState, square: int) -> tuple[FlitState, list[Any]]:
        after, events = super()._setup(state, square)
        if after.phase == MOVE:
            after = after._replace(to_move=4)
        return after, events

    def _advance(self, state: FlitState, events: list[Any]) -> FlitState:
        bot = state.to_move
        # a run of time-outs under way (a reply in time ends it): the bot is asked again
        if state.timeouts[bot - 1] and not state.frozen[bot - 1]:
            return state._replace(phase=MOVE)
        return super()._advance(state, events)

    def end_reasons(self, state: FlitState) -> list[str]:
        reasons = super().end_reasons(state)
        if "all-pass" in reasons and state.to_move != 4:
            reasons.remove("all-pass")  # not a whole round 1 to 4 yet
        return reasons


ENGINE = LastPlacerFirst

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-compound-last_placer_first")
