"""Mutant: The castle counts as a square of every terrain: it joins the zones around it.
Breaks KD-SCORE-ZONES."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.scoring import CastleJoinsZones as Mutant

RULE = "KD-SCORE-ZONES"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-castle_terrain")
