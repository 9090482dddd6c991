"""Mutant: On the tile just placed, the fields on the two sides of a road edge are one field.
Breaks CARC-FARM-FIELDS (farms stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.farms import FieldCrossesRoad as Mutant

RULE = "CARC-FARM-FIELDS"
PROFILE = "syncs-2025-farms"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-field_crosses_road")
