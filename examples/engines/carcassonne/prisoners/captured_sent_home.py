"""Mutant: A captured opponent's meeple goes back to its owner instead of prison. Breaks CARC-
TOWER-CAPTURE (tower stage)."""

from __future__ import annotations

from gamecert.reference_engine.carcassonne.departures.tower import CapturedSentHome as Mutant

RULE = "CARC-TOWER-CAPTURE"
PROFILE = "syncs-2025-tower"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="carcassonne-mutant-captured_sent_home")
