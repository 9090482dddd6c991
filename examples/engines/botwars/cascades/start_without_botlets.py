"""Mutant (a cascade pattern: an engine that starts from another position): a new game
starts with no botlet on the field and the whole initial energy, where the `original`
profile puts each bot's first botlet on its spawn point at the start. Breaks
BOTWARS-FIRST-BOTLETS, and only it: the moves of the first turn, judged on the reference's
field, must not be charged too."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import StartWithoutBotlets

RULE = "BOTWARS-FIRST-BOTLETS"
PROFILE = "original"

ENGINE = StartWithoutBotlets

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
