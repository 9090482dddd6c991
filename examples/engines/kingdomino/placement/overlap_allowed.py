"""Mutant: A PUT over squares of another tile (not the castle) is accepted: the check a PUT
goes through forgets overlap (the engine's own listing and discard test still have it).
Breaks KD-PLACE-NO-OVERLAP."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.placement import OverlapAllowed as Mutant

RULE = "KD-PLACE-NO-OVERLAP"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-overlap_allowed")
