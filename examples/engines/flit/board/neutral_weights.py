"""Mutant: the neutral step lists its outcomes with the wrong weights (a neutral lands on an
available square with probability 1 in 8, not 1 in hit_denominator; the misses make up the
rest). Its set of outcomes and every transition are right: only the probabilities it lists
are wrong. Breaks FLIT-NEUTRAL-ADD."""

from __future__ import annotations

from gamecert.reference_engine.flit.departures import NeutralWeights as Mutant

RULE = "FLIT-NEUTRAL-ADD"

ENGINE = Mutant

if __name__ == "__main__":
    from gamecert.fuzz.engines.server import serve_engine

    serve_engine(ENGINE(), name="flit-mutant-neutral_weights")
