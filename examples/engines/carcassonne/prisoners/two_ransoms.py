"""Mutant: A player may pay a ransom twice in one turn. Breaks CARC-TOWER-RANSOM (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import TwoRansoms as Mutant

RULE = "CARC-TOWER-RANSOM"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-two_ransoms")
