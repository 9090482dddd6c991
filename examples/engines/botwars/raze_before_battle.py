"""Mutant: razing looks at the field before the battles, so a botlet that dies on the enemy
spawn still razes it. Breaks BOTWARS-RAZE."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars

RULE = "BOTWARS-RAZE"


class RazeBeforeBattle(BotWars):
    def raze_grid(self, post_move: bytes, post_battle: bytes) -> bytes:
        return post_move


ENGINE = RazeBeforeBattle

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
