"""Mutant: The Tower tiles never reach the deck. Breaks CARC-TOWER-TILES (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import TowerTilesMissing as Mutant

RULE = "CARC-TOWER-TILES"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-tower_tiles_missing")
