"""Mutant: With 2 players each player has one king. Breaks KD-KINGS."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import OneKingTwoPlayers as Mutant

RULE = "KD-KINGS"
PROFILE = "legend-2p"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-one_king_2p")
