"""Mutant: A river edge may face a field edge. Breaks CARC-RIVER-MEETS-RIVER."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.river import RiverMeetsField as Mutant

RULE = "CARC-RIVER-MEETS-RIVER"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-river_meets_field")
