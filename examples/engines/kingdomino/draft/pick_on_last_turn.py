"""Mutant: A PICK on the last turn is accepted (and ignored). Breaks KD-LAST-TURN-NO-PICK."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import PickOnLastTurn as Mutant

RULE = "KD-LAST-TURN-NO-PICK"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-pick_on_last_turn")
