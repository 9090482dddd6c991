"""Mutant: Above Wood too an invalid PUT discards the tile (the Wood rule).
Breaks KD-PUT-INVALID."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.protocol import InvalidPutDiscards as Mutant

RULE = "KD-PUT-INVALID"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-invalid_put_discards")
