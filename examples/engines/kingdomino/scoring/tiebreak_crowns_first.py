"""Mutant: Ties are broken by crowns first, then by territory. Breaks KD-TIE-BREAK."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.scoring import TieBreakCrownsFirst as Mutant

RULE = "KD-TIE-BREAK"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-tiebreak_crowns_first")
