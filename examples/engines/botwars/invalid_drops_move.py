"""Mutant: an invalid move only drops itself; the rest of the list is carried out, even
where the profile says the whole turn is lost. Breaks BOTWARS-MOVE-INVALID."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig, Checked, Move

RULE = "BOTWARS-MOVE-INVALID"


class InvalidDropsMove(BotWars):
    def accepted(self, cfg: BotWarsConfig, checked: Checked) -> tuple[Move, ...]:
        return checked.valid


ENGINE = InvalidDropsMove

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
