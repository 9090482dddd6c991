"""Mutant: A tile already drawn may be drawn again. Breaks KD-DEAL."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import DealDrawnTile as Mutant

RULE = "KD-DEAL"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-deal_drawn_tile")
