"""Mutant: A tile need not touch the castle or the same terrain. Breaks KD-PLACE-CONNECT."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.placement import NoConnection as Mutant

RULE = "KD-PLACE-CONNECT"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-no_connection")
