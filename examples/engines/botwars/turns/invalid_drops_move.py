"""Mutant: an invalid move only drops itself; the rest of the list is carried out, even
where the profile says the whole turn is lost. Breaks BOTWARS-MOVE-INVALID."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import InvalidDropsMove

RULE = "BOTWARS-MOVE-INVALID"

ENGINE = InvalidDropsMove

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
