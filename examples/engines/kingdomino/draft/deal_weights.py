"""Mutant: each tile of a new line is drawn with the wrong weights (the lowest id left is
listed as twice as likely as each other tile). Its set of outcomes and every transition are
right: only the probabilities it lists are wrong. Breaks KD-DEAL."""

from __future__ import annotations

from gamecert.reference_engine.kingdomino.departures.turns import DealWeights as Mutant

RULE = "KD-DEAL"
PROFILE = "legend"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="kingdomino-mutant-deal_weights")
