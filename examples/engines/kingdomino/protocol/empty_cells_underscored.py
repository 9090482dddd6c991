"""Mutant: Grids print an empty cell as '__' instead of '_0'. Breaks KD-PROTO-INPUT."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.protocol import EmptyCellsUnderscored as Mutant

RULE = "KD-PROTO-INPUT"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-empty_cells_underscored")
