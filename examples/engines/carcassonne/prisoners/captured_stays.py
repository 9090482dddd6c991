"""Mutant: A captured meeple is announced but stays where it was. Breaks CARC-TOWER-CAPTURE (tower
stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import CapturedStays as Mutant

RULE = "CARC-TOWER-CAPTURE"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-captured_stays")
