"""Compound mutant: an engine shaped like a real one, with three departures at once.

Run it behind `bare:` (minimum capabilities, its own seeded draws, no events), as a real
engine is run: `--engine bare:examples.engines.flit.compounds.compound_dealt_together:ENGINE`.

1. FLIT-SETUP-ORDER, on every game's first steps: the initial pieces are dealt bot by bot,
   each bot's two pieces together (1, 1, 2, 2, 3, 3, 4, 4), as a loop over the bots with a
   loop over their pieces inside deals them.
2. FLIT-CONVERT, later: a converted neutral takes the colour of the bot whose turn comes
   next, not the mover's (the engine reads the colour once it has handed the turn on).
3. FLIT-WINNER-TIE, at the end: a tie for first goes to the highest-numbered of the tied
   bots (the engine keeps the last maximum it meets), where nobody should win.

Written apart from the departure library (reference_engine/flit/departures.py): its own
code, and departures 2 and 3 are not among the library's models, so the oracles name them.
"""

from __future__ import annotations

from typing import Any

from gamecert.reference_engine.flit.engine import NEUTRAL, Flit, FlitState

RULES = ("FLIT-SETUP-ORDER", "FLIT-CONVERT", "FLIT-WINNER-TIE")


class DealtTogether(Flit):
    def _setup(self, state: FlitState, square: int) -> tuple[FlitState, list[Any]]:
        # deal to the first bot still short of its pieces
        per_bot = state.cfg.pieces_per_bot
        short = next(b for b in (1, 2, 3, 4) if state.board.count(b) < per_bot)
        after, events = super()._setup(state._replace(to_move=short), square)
        if after.phase == state.phase:
            following = next((b for b in (1, 2, 3, 4) if after.board.count(b) < per_bot), 1)
            after = after._replace(to_move=following)
        return after, events

    def _move(self, state: FlitState, origin: int, dest: int) -> tuple[FlitState, list[Any]]:
        after, events = super()._move(state, origin, dest)
        board = bytearray(after.board)
        colour = state.to_move % 4 + 1
        for square, was in enumerate(state.board):
            if was == NEUTRAL and board[square] == state.to_move:
                board[square] = colour
        return after._replace(board=bytes(board)), events

    def winner(self, counts: list[int]) -> int | None:
        best, who = -1, None
        for bot, count in enumerate(counts, 1):
            if count >= best:
                best, who = count, bot
        return who


ENGINE = DealtTogether

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-compound-dealt_together")
