"""Mutant: A tile may be discarded even when it fits somewhere. Breaks KD-DISCARD."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.placement import DiscardWhenFits as Mutant

RULE = "KD-DISCARD"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-discard_when_fits")
