"""Mutant: A king may pick a tile another king has already picked. Breaks KD-PICK."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import PickTakenTile as Mutant

RULE = "KD-PICK"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-pick_taken_tile")
