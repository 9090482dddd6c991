"""Mutant: a botlet may move onto a square its own botlet holds (the two merge into one).
Breaks BOTWARS-MOVE-OCCUPIED."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BOT, BotWars, BotWarsConfig, Move

RULE = "BOTWARS-MOVE-OCCUPIED"


class MoveOntoOwn(BotWars):
    def single_move_fault(self, cfg: BotWarsConfig, grid: bytes, side: int,
                          move: Move) -> tuple[str, str] | None:
        fault = super().single_move_fault(cfg, grid, side, move)
        if fault == ("occupied", "BOTWARS-MOVE-OCCUPIED") and grid[move[1]] == BOT[side]:
            return None
        return fault


ENGINE = MoveOntoOwn

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
