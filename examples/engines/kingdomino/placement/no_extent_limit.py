"""Mutant: No limit on the territory's extent at all: any PUT on the 9 x 9 grid that connects
and overlaps nothing is accepted, as in a real engine that forgets the 5 x 5 rule.
Breaks KD-PLACE-EXTENT."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.placement import NoExtentLimit as Mutant

RULE = "KD-PLACE-EXTENT"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-no_extent_limit")
