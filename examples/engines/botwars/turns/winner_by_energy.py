"""Mutant: at the turn limit the bot with more energy wins, not the one with more botlets.
Breaks BOTWARS-WINNER."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import WinnerByEnergy

RULE = "BOTWARS-WINNER"

ENGINE = WinnerByEnergy

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
