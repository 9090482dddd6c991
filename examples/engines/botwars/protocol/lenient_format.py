"""Mutant: a forgiving referee: a reply that is JSON but not a list of {from, to} objects
counts as an empty turn instead of disqualifying. Breaks BOTWARS-FORMAT-DQ."""

from __future__ import annotations

from gamecert.reference_engine.botwars.departures.mutants import LenientFormat

RULE = "BOTWARS-FORMAT-DQ"

ENGINE = LenientFormat

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
