"""Mutant: Only the new tile's road and town edges are matched: its field edges may face a
road or a town. Breaks CARC-PLACE-MATCH."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.claims import FieldMeetsRoad as Mutant

RULE = "CARC-PLACE-MATCH"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-field_meets_road")
